import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlockedAddress, isPublicAddress } from '../../../shared/domain/address-ranges.js';

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
const hex = (a: number, b: number) => ((a << 8) | b).toString(16);

describe('isPublicAddress', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['IPv4-compatible', '::7f00:1'],
    ['IPv4-translated', '::ffff:0:7f00:1'],
    ['local-use NAT64', '64:ff9b:1::a00:5'],
    ['6to4', '2002:a00:5::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['site-local', 'fec0::1'],
    ['documentation 3fff::/20', '3fff::1'],
    ['SRv6 SIDs', '5f00::1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['a zone id', 'fe80::1%eth0'],
    ['a zone id on a global address', '2606:4700::1111%eth0'],
    ['a host name', 'cdn.example.com'],
    ['the empty string', ''],
  ])('refuses %s (%s)', (_what, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('refuses every address isBlockedAddress refuses (it only ever adds ranges)', () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        if (isBlockedAddress(address)) expect(isPublicAddress(address)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        if (isBlockedAddress(address)) expect(isPublicAddress(address)).toBe(false);
      }),
    );
  });

  it('judges an IPv4-mapped address, in any spelling, as its IPv4 address', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), ([a, b, c, d]) => {
        const expected = isPublicAddress(`${a}.${b}.${c}.${d}`);
        expect(isPublicAddress(`::ffff:${a}.${b}.${c}.${d}`)).toBe(expected);
        expect(isPublicAddress(`::FFFF:${hex(a, b)}:${hex(c, d)}`)).toBe(expected);
        expect(isPublicAddress(`0:0:0:0:0:ffff:${hex(a, b)}:${hex(c, d)}`)).toBe(expected);
      }),
    );
  });

  it('refuses every IPv4-compatible address, whatever the IPv4 part', () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        expect(isPublicAddress(`::${address}`)).toBe(false);
      }),
    );
  });
});
