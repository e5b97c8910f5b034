import type { Lookup, RequestFunction } from '../../adapters/http/pinned-connection.js';
import { makePublicOnlyFetch, PublicAddressRefusedError } from '../../adapters/http/public-fetch.js';
import { isPublicAddress } from '../../domain/address-ranges.js';
import { isLoopbackHttp } from './insecure.js';

/** Seams for tests: the name lookup (and where connections go), as the PDS fetch makes them. */
export interface PdsFetchSeams {
  lookup?: Lookup;
  httpsRequest?: RequestFunction;
  httpRequest?: RequestFunction;
}

function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
}

/**
 * The fetch of every call to a host a DID document or a PDS named (the PDS, its
 * protected-resource document, a did:web document): such a host is a stranger's input, so its
 * name is resolved once and connected to only when EVERY address is public
 * (public-fetch.ts). Loopback (and plain http) is allowed only where the PLC directory itself is a
 * loopback fake, as pds-address.ts allows it: tests and the local host with the fakes.
 */
export function blueskyPdsFetch(plcUrl: string, seams: PdsFetchSeams = {}): typeof fetch {
  const fakes = isLoopbackHttp(plcUrl);
  return makePublicOnlyFetch({
    ...seams,
    allowPlainHttp: fakes,
    isAllowedAddress: fakes
      ? (address) => isLoopbackAddress(address) || isPublicAddress(address)
      : isPublicAddress,
  });
}

/** Whether an error (or one of its causes) is the PDS fetch refusing a non-public address. */
export function isPdsAddressRefusal(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof PublicAddressRefusedError) return true;
    current = current.cause;
  }
  return false;
}
