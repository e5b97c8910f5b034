import { isIP } from 'node:net';
import { isLoopbackHttp } from './insecure.js';

const PRIVATE_V4 = [
  /^10\./,
  /^127\./,
  /^169\.254\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^0\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

function isPrivateAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare.endsWith('.internal')) return true;
  const version = isIP(bare);
  if (version === 4) return PRIVATE_V4.some((range) => range.test(bare));
  if (version === 6)
    return (
      bare === '::1' || bare === '::' || /^(fc|fd|fe8|fe9|fea|feb)/.test(bare) || bare.startsWith('::ffff:')
    );
  return false;
}

/**
 * Whether a PDS address read from a DID document may be called. The document is the account
 * holder's to write, so its address is a stranger's input: our backend will send it requests.
 * It must be https on a public name or address; plain http on loopback is taken only where the
 * PLC directory itself is a loopback fake (tests and the local host with the fakes). This checks
 * the URL only; what a NAME resolves to is checked when it is called: every PDS-bound request goes
 * through the public-only fetch (pds-fetch.ts), which resolves the name once, refuses it if any
 * address is not public, and connects to a vetted address (no DNS-rebinding gap).
 */
export function isCallablePds(pds: string, plcUrl: string): boolean {
  if (!URL.canParse(pds)) return false;
  const url = new URL(pds);
  if (isLoopbackHttp(plcUrl) && isLoopbackHttp(pds)) return true;
  return (
    url.protocol === 'https:' && url.username === '' && url.password === '' && !isPrivateAddress(url.hostname)
  );
}
