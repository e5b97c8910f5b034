import { BlockList, isIP } from 'node:net';

/**
 * Addresses a public media URL may never point at: loopback, RFC 1918, link-local (cloud metadata),
 * CGNAT, unique-local and the other special-purpose ranges.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address hidden in an IPv4-mapped IPv6 address (`::ffff:7f00:1` → `127.0.0.1`). */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(address);
  if (!match) return undefined;
  if (match[3]) return match[3];
  const high = Number.parseInt(match[1] ?? '0', 16);
  const low = Number.parseInt(match[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an IP address (v4 or v6, without brackets) in a range no public URL may reach. */
export function isBlockedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, 'ipv4');
  if (version !== 6) return false;
  const mapped = mappedIpv4(address);
  if (mapped) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/**
 * Why a URL's literal host is refused before any DNS lookup, or undefined. The WHATWG URL parser has
 * already normalised decimal, octal and hex IPv4 forms (`http://2130706433/` is 127.0.0.1).
 */
export function literalHostProblem(url: URL): string | undefined {
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost is not a public host';
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  // The same test the fetcher applies at publish time, so a URL refused then is refused now.
  if (isIP(bare) && !isPublicAddress(bare)) return `${bare} is a private, loopback or reserved address`;
  return undefined;
}

/**
 * Ranges refused on top of `blocked` when the service itself opens a connection (the media fetcher):
 * IPv6 forms that carry or reach an IPv4 address (IPv4-compatible `::a.b.c.d`, IPv4-translated,
 * local-use NAT64, 6to4, Teredo), deprecated site-local, and the newer special-purpose blocks. They
 * are kept apart so that `isBlockedAddress` (and with it the create-time URL check) keeps its
 * behaviour; a connection target must pass both lists.
 */
const blockedForConnections = new BlockList();
blockedForConnections.addSubnet('192.88.99.0', 24, 'ipv4');
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 23],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fec0::', 10],
] as const) {
  blockedForConnections.addSubnet(network, prefix, 'ipv6');
}

/** The canonical text of an IPv6 address (lower case, shortest form, hex tail), or undefined. */
function canonicalIpv6(address: string): string | undefined {
  try {
    const host = new URL(`https://[${address}]/`).hostname;
    return host.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * True only for a literal IP address (v4 or v6, without brackets) that a connection may go to: not in
 * any range `isBlockedAddress` refuses, nor in the transition and embedding ranges above. An IPv6
 * address is judged in canonical form, so `0:0:0:0:0:FFFF:7F00:1` is `::ffff:7f00:1`, and an
 * IPv4-mapped address by its IPv4 part. Anything else (a name, a zone id like `fe80::1%eth0`, garbage)
 * is not public.
 */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !isBlockedAddress(address) && !blockedForConnections.check(address, 'ipv4');
  if (version !== 6 || address.includes('%')) return false;
  const canonical = canonicalIpv6(address);
  if (canonical === undefined) return false;
  const mapped = mappedIpv4(canonical);
  if (mapped) return isPublicAddress(mapped);
  return !isBlockedAddress(canonical) && !blockedForConnections.check(canonical, 'ipv6');
}
