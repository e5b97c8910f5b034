import { isIP } from 'node:net';
import { isPublicAddress } from '../../domain/address-ranges.js';
import { isLoopbackHttp } from './insecure.js';

/**
 * A name that only ever means this machine or its network, or a literal address outside the public
 * ranges (the media fetcher's and the webhook sender's list, domain/address-ranges.ts); an
 * IPv4-mapped IPv6 literal is refused whatever it maps to.
 */
function isPrivateAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare.endsWith('.internal')) return true;
  if (isIP(bare) === 0) return false;
  return !isPublicAddress(bare) || bare.startsWith('::ffff:');
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
