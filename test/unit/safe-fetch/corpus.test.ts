import type { RequestOptions } from 'node:https';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type HttpsRequest,
  type Lookup,
  MediaFetchError,
  makeSafeFetcher,
  type ResolvedAddress,
} from '../../../shared/adapters/http/safe-fetch.js';
import type { MediaKind } from '../../../shared/domain/posts.js';

/**
 * The SSRF corpus: each URL is an attempt to make the media fetcher reach something that is not a
 * public host. No test here opens a connection: the resolver is a map, and `request` is a spy that
 * throws, so a URL that got as far as connecting shows up as a call (and as the wrong error code).
 */

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** The resolver of these tests; a name not in it does not exist (ENOTFOUND). */
const ZONE: Record<string, ResolvedAddress[]> = {
  'cdn.example.com': [v4(PUBLIC_V4)],
  'dual.example.com': [v6(PUBLIC_V6), v4(PUBLIC_V4)],
  'internal.example': [v4('10.0.0.5')],
  'router.example': [v4('192.168.1.1')],
  'docker.example': [v4('172.17.0.1')],
  'cgnat.example': [v4('100.64.12.34')],
  'metadata.example': [v4('169.254.169.254')],
  'zero.example': [v4('0.0.0.0')],
  'loopback.example': [v4('127.0.0.1')],
  '127.0.0.1.nip.io': [v4('127.0.0.1')],
  'aaaa.example': [v6('fd00::1')],
  'v6-loopback.example': [v6('::1')],
  'v6-linklocal.example': [v6('fe80::1')],
  'scoped.example': [v6('fe80::1%eth0')],
  'mapped.example': [v6('::ffff:169.254.169.254')],
  'nat64.example': [v6('64:ff9b::a00:5')],
  'rebind.example': [v4(PUBLIC_V4), v4('127.0.0.1')],
  'rebind6.example': [v6(PUBLIC_V6), v6('fc00::2')],
  'multicast.example': [v4('239.255.255.250')],
  'empty.example': [],
  // "exаmple.com" with a Cyrillic "а": the URL parser turns it into this punycode name.
  'xn--exmple-4nf.com': [v4('192.168.0.10')],
};

const lookupZone: Lookup = async (hostname) => {
  const answer = ZONE[hostname.replace(/\.$/, '')];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
};

/** A fetcher whose every connection attempt is recorded and fails, with the production policy. */
function fetcherUnderTest() {
  const lookup = vi.fn(lookupZone);
  const request = vi.fn<HttpsRequest>(() => {
    throw new Error('a connection was attempted');
  });
  const fetchMedia = makeSafeFetcher({ maxBytes: 1024, timeoutMs: 2_000, lookup, request });
  return { fetchMedia, lookup, request };
}

async function failureOf(promise: Promise<unknown>): Promise<MediaFetchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MediaFetchError);
  return error as MediaFetchError;
}

/** [what it tries, URL, the code it must fail with]. Every row fails without a connection. */
const CORPUS: [string, string, string][] = [
  // IPv4 literals in every spelling the WHATWG parser normalises.
  ['decimal 127.0.0.1', 'https://2130706433/a.png', 'media_url_blocked'],
  ['octal 127.0.0.1', 'https://017700000001/a.png', 'media_url_blocked'],
  ['hex 127.0.0.1', 'https://0x7f000001/a.png', 'media_url_blocked'],
  ['dotted hex 127.0.0.1', 'https://0x7f.0x0.0x0.0x1/a.png', 'media_url_blocked'],
  ['dotted octal 127.0.0.1', 'https://0177.0.0.01/a.png', 'media_url_blocked'],
  ['short form 127.1', 'https://127.1/a.png', 'media_url_blocked'],
  ['mixed short form 0x7f.1', 'https://0x7f.1/a.png', 'media_url_blocked'],
  ['IPv4 with a trailing dot', 'https://127.0.0.1./a.png', 'media_url_blocked'],
  ['full-width digits', 'https://１２７.０.０.１/a.png', 'media_url_blocked'],
  ['percent-encoded host', 'https://%31%32%37.0.0.1/a.png', 'media_url_blocked'],
  ['0.0.0.0', 'https://0.0.0.0/a.png', 'media_url_blocked'],
  ['0 (this network)', 'https://0/a.png', 'media_url_blocked'],
  ['RFC 1918 10/8', 'https://10.0.0.1/a.png', 'media_url_blocked'],
  ['RFC 1918 172.16/12, low end', 'https://172.16.0.1/a.png', 'media_url_blocked'],
  ['RFC 1918 172.16/12, high end', 'https://172.31.255.254/a.png', 'media_url_blocked'],
  ['RFC 1918 192.168/16', 'https://192.168.1.1/a.png', 'media_url_blocked'],
  ['CGNAT 100.64/10', 'https://100.64.0.1/a.png', 'media_url_blocked'],
  ['cloud metadata 169.254.169.254', 'https://169.254.169.254/latest/meta-data/', 'media_url_blocked'],
  ['cloud metadata as a decimal', 'https://2852039166/latest/meta-data/', 'media_url_blocked'],
  ['multicast 224.0.0.1', 'https://224.0.0.1/a.png', 'media_url_blocked'],
  ['reserved 240.0.0.1', 'https://240.0.0.1/a.png', 'media_url_blocked'],
  ['broadcast 255.255.255.255', 'https://255.255.255.255/a.png', 'media_url_blocked'],
  ['6to4 relay anycast 192.88.99.1', 'https://192.88.99.1/a.png', 'media_url_blocked'],
  // IPv6 literals.
  ['[::1]', 'https://[::1]/a.png', 'media_url_blocked'],
  ['[::] unspecified', 'https://[::]/a.png', 'media_url_blocked'],
  ['[fe80::1] link-local', 'https://[fe80::1]/a.png', 'media_url_blocked'],
  ['[fc00::1] unique-local', 'https://[fc00::1]/a.png', 'media_url_blocked'],
  ['[fd12:3456::1] unique-local', 'https://[fd12:3456::1]/a.png', 'media_url_blocked'],
  ['[fec0::1] deprecated site-local', 'https://[fec0::1]/a.png', 'media_url_blocked'],
  ['IPv4-mapped ::ffff:127.0.0.1', 'https://[::ffff:127.0.0.1]/a.png', 'media_url_blocked'],
  ['IPv4-mapped in hex ::ffff:7f00:1', 'https://[::ffff:7f00:1]/a.png', 'media_url_blocked'],
  ['IPv4-mapped metadata, long form', 'https://[0:0:0:0:0:ffff:169.254.169.254]/', 'media_url_blocked'],
  ['IPv4-compatible ::127.0.0.1', 'https://[::127.0.0.1]/a.png', 'media_url_blocked'],
  ['IPv4-translated ::ffff:0:7f00:1', 'https://[::ffff:0:7f00:1]/a.png', 'media_url_blocked'],
  ['NAT64 64:ff9b::10.0.0.5', 'https://[64:ff9b::10.0.0.5]/a.png', 'media_url_blocked'],
  ['NAT64 in hex 64:ff9b::a00:5', 'https://[64:ff9b::a00:5]/a.png', 'media_url_blocked'],
  ['local-use NAT64 64:ff9b:1::a00:5', 'https://[64:ff9b:1::a00:5]/a.png', 'media_url_blocked'],
  ['6to4 2002:7f00:1::', 'https://[2002:7f00:1::]/a.png', 'media_url_blocked'],
  ['Teredo 2001::1', 'https://[2001::1]/a.png', 'media_url_blocked'],
  ['multicast ff02::1', 'https://[ff02::1]/a.png', 'media_url_blocked'],
  // Localhost by name.
  ['localhost', 'https://localhost/a.png', 'media_url_blocked'],
  ['LOCALHOST in capitals', 'https://LOCALHOST/a.png', 'media_url_blocked'],
  ['localhost. (trailing dot)', 'https://localhost./a.png', 'media_url_blocked'],
  ['localhost.. (two trailing dots)', 'https://localhost../a.png', 'media_url_blocked'],
  ['a .localhost subdomain', 'https://media.localhost/a.png', 'media_url_blocked'],
  ['circled-letter ⓛocalhost (IDN mapping)', 'https://ⓛocalhost/a.png', 'media_url_blocked'],
  // Names that resolve to refused addresses (A and AAAA), or to a mix.
  ['name → 10.0.0.5', 'https://internal.example/a.png', 'media_url_blocked'],
  ['name → 192.168.1.1', 'https://router.example/a.png', 'media_url_blocked'],
  ['name → 172.17.0.1 (docker bridge)', 'https://docker.example/a.png', 'media_url_blocked'],
  ['name → 100.64.12.34 (CGNAT)', 'https://cgnat.example/a.png', 'media_url_blocked'],
  ['name → 169.254.169.254', 'https://metadata.example/latest/meta-data/', 'media_url_blocked'],
  ['name → 0.0.0.0', 'https://zero.example/a.png', 'media_url_blocked'],
  ['name → 127.0.0.1', 'https://loopback.example/a.png', 'media_url_blocked'],
  ['wildcard DNS 127.0.0.1.nip.io', 'https://127.0.0.1.nip.io/a.png', 'media_url_blocked'],
  ['name → multicast 239.255.255.250', 'https://multicast.example/a.png', 'media_url_blocked'],
  ['AAAA → fd00::1', 'https://aaaa.example/a.png', 'media_url_blocked'],
  ['AAAA → ::1', 'https://v6-loopback.example/a.png', 'media_url_blocked'],
  ['AAAA → fe80::1', 'https://v6-linklocal.example/a.png', 'media_url_blocked'],
  ['AAAA → fe80::1%eth0 (zone id)', 'https://scoped.example/a.png', 'media_url_blocked'],
  ['AAAA → ::ffff:169.254.169.254', 'https://mapped.example/a.png', 'media_url_blocked'],
  ['AAAA → NAT64 of 10.0.0.5', 'https://nat64.example/a.png', 'media_url_blocked'],
  ['public + 127.0.0.1 (rebinding set)', 'https://rebind.example/a.png', 'media_url_blocked'],
  ['public v6 + fc00::2', 'https://rebind6.example/a.png', 'media_url_blocked'],
  ['a name with a trailing dot → 10.0.0.5', 'https://internal.example./a.png', 'media_url_blocked'],
  ['IDN homograph exаmple.com → 192.168.0.10', 'https://exаmple.com/a.png', 'media_url_blocked'],
  // Schemes other than HTTPS.
  ['http://', 'http://cdn.example.com/a.png', 'media_url_blocked'],
  ['ftp://', 'ftp://cdn.example.com/a.png', 'media_url_blocked'],
  ['file://', 'file:///etc/passwd', 'media_url_blocked'],
  ['gopher://', 'gopher://cdn.example.com:70/_GET', 'media_url_blocked'],
  ['data:', 'data:image/png;base64,iVBORw0KGgo=', 'media_url_blocked'],
  ['not a URL at all', 'cdn.example.com/a.png', 'media_url_blocked'],
  // Credentials and userinfo tricks.
  ['user:pass@ on a public host', 'https://user:pass@cdn.example.com/a.png', 'media_url_blocked'],
  ['user@ without a password', 'https://user@cdn.example.com/a.png', 'media_url_blocked'],
  ['public name as userinfo, loopback host', 'https://cdn.example.com@127.0.0.1/a.png', 'media_url_blocked'],
  ['public name after a fragment', 'https://127.0.0.1#@cdn.example.com/a.png', 'media_url_blocked'],
  ['public name after a backslash', 'https://127.0.0.1\\@cdn.example.com/a.png', 'media_url_blocked'],
  ['public name after a ?', 'https://169.254.169.254?@cdn.example.com/', 'media_url_blocked'],
  // Ports other than 443.
  ['port 22', 'https://cdn.example.com:22/a.png', 'media_url_blocked'],
  ['port 8443', 'https://cdn.example.com:8443/a.png', 'media_url_blocked'],
  ['port 0', 'https://cdn.example.com:0/a.png', 'media_url_blocked'],
  ['port 80 with https', 'https://cdn.example.com:80/a.png', 'media_url_blocked'],
  ['port 6379 on an internal name', 'https://internal.example:6379/a.png', 'media_url_blocked'],
  // Names that do not resolve: unreachable, but still no connection.
  ['a name that does not exist', 'https://nowhere.example/a.png', 'media_url_unreachable'],
  ['a name with no address', 'https://empty.example/a.png', 'media_url_unreachable'],
];

describe('the SSRF corpus', () => {
  it('has at least 30 attempts', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CORPUS)('%s (%s) fails with %s and opens no connection', async (_what, url, code) => {
    // Prepare
    const { fetchMedia, request } = fetcherUnderTest();

    // Act
    const error = await failureOf(fetchMedia(url, 'image'));

    // Assess
    expect(error.code).toBe(code);
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses any spelling (decimal, hex, octal, dotted) of any address in a refused IPv4 range', async () => {
    const { fetchMedia, request } = fetcherUnderTest();
    const ranges: [number, number][] = [
      [0x00000000, 8], // 0.0.0.0/8
      [0x0a000000, 8], // 10/8
      [0x64400000, 10], // 100.64/10
      [0x7f000000, 8], // 127/8
      [0xa9fe0000, 16], // 169.254/16
      [0xac100000, 12], // 172.16/12
      [0xc0a80000, 16], // 192.168/16
      [0xe0000000, 4], // 224/4
      [0xf0000000, 4], // 240/4
    ];
    const blockedAddress = fc
      .tuple(fc.constantFrom(...ranges), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
      .map(([[network, prefix], host]) => (network + (host % 2 ** (32 - prefix))) >>> 0);
    const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    const spellings: ((n: number) => string)[] = [
      (n) => String(n),
      (n) => `0x${n.toString(16)}`,
      (n) => `0${n.toString(8)}`,
      (n) => octets(n).join('.'),
      (n) =>
        octets(n)
          .map((o) => `0x${o.toString(16)}`)
          .join('.'),
      (n) =>
        octets(n)
          .map((o) => `0${o.toString(8)}`)
          .join('.'),
      (n) => `${n >>> 24}.${n & 0xffffff}`,
    ];

    await fc.assert(
      fc.asyncProperty(blockedAddress, fc.constantFrom(...spellings), async (address, spell) => {
        const error = await failureOf(fetchMedia(`https://${spell(address)}/a.png`, 'image'));
        expect(error.code).toBe('media_url_blocked');
      }),
    );
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses a name when any one of its addresses is refused, whatever the order of the answer', async () => {
    const { request } = fetcherUnderTest();
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([v4(PUBLIC_V4), v6(PUBLIC_V6), v4('8.8.8.8')], { minLength: 0 }),
        fc.constantFrom(v4('10.1.2.3'), v4('127.0.0.53'), v6('::1'), v6('fd00::53'), v6('::ffff:10.0.0.1')),
        fc.nat(),
        async (publicOnes, refused, at) => {
          const answer = [...publicOnes];
          answer.splice(at % (answer.length + 1), 0, refused);
          const fetchMedia = makeSafeFetcher({
            maxBytes: 1024,
            timeoutMs: 2_000,
            lookup: async () => answer,
            request,
          });
          const error = await failureOf(fetchMedia('https://mixed.example/a.png', 'image'));
          expect(error.code).toBe('media_url_blocked');
        },
      ),
    );
    expect(request).not.toHaveBeenCalled();
  });
});

describe('what a refusal tells the caller', () => {
  it('names the host the caller gave, never the private address it resolved to', async () => {
    const { fetchMedia } = fetcherUnderTest();

    const error = await failureOf(fetchMedia('https://internal.example/a.png', 'image'));

    expect(error.message).toContain('internal.example');
    expect(error.message).not.toContain('10.0.0.5');
    expect(error.transient).toBe(false);
  });

  it('says why an http:// URL is refused', async () => {
    const { fetchMedia } = fetcherUnderTest();

    const error = await failureOf(fetchMedia('http://cdn.example.com/a.png', 'image'));

    expect(error.message).toMatch(/only HTTPS/);
  });

  it('marks a name that does not resolve as transient, and does not echo resolver internals', async () => {
    const { fetchMedia } = fetcherUnderTest();

    const error = await failureOf(fetchMedia('https://nowhere.example/a.png', 'image'));

    expect(error.transient).toBe(true);
    expect(error.message).not.toContain('getaddrinfo');
  });
});

describe('a public URL (the control: the spy sees where the connection would go)', () => {
  it('resolves the name once and connects to the vetted address, keeping the name for SNI and Host', async () => {
    // Prepare
    const { fetchMedia, lookup, request } = fetcherUnderTest();

    // Act
    const error = await failureOf(fetchMedia('https://cdn.example.com/media/a.png?v=2', 'image'));

    // Assess
    expect(error.code).toBe('media_url_unreachable'); // the spy refused the connection
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('cdn.example.com');
    expect(request).toHaveBeenCalledTimes(1);
    const options = request.mock.calls[0]?.[0] as RequestOptions;
    expect(options).toMatchObject({
      host: PUBLIC_V4,
      family: 4,
      port: 443,
      path: '/media/a.png?v=2',
      method: 'GET',
      servername: 'cdn.example.com',
      agent: false,
    });
    expect(options.headers).toMatchObject({
      host: 'cdn.example.com',
      accept: 'image/jpeg, image/png, image/gif, image/webp, image/heic',
    });
    expect((options.headers as Record<string, string>)['user-agent']).toBeTruthy();
  });

  it('tries the next vetted address when one does not take the connection, without a second lookup', async () => {
    const { fetchMedia, lookup, request } = fetcherUnderTest();

    await failureOf(fetchMedia('https://dual.example.com/a.mp4', 'video'));

    expect(lookup).toHaveBeenCalledTimes(1);
    expect(request.mock.calls.map(([options]) => [options.host, options.family])).toEqual([
      [PUBLIC_V6, 6],
      [PUBLIC_V4, 4],
    ]);
  });

  it.each<[string, MediaKind]>([
    ['https://93.184.216.34/a.pdf', 'document'],
    [`https://[${PUBLIC_V6}]/a.pdf`, 'document'],
  ])('connects to a public IP literal %s with no lookup and no IP as SNI', async (url, kind) => {
    const { fetchMedia, lookup, request } = fetcherUnderTest();

    await failureOf(fetchMedia(url, kind));

    expect(lookup).not.toHaveBeenCalled();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0]?.[0].servername).toBeUndefined();
    expect(request.mock.calls[0]?.[0].headers).toMatchObject({ accept: 'application/pdf' });
  });
});
