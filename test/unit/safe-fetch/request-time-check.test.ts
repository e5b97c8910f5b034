import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type HttpsRequest,
  MediaFetchError,
  makeSafeFetcher,
} from '../../../shared/adapters/http/safe-fetch.js';
import { describeUrlRefusal, urlRefusal } from '../../../shared/domain/fetchable-url.js';
import { importBody } from '../../../shared/operations/media/media-schemas.js';
import { mediaRefSchema } from '../../../shared/operations/posts/post-schemas.js';

/**
 * The request-time URL check and the fetcher share one rule set (`urlRefusal`): a URL is refused
 * when the request names it exactly when the fetcher would refuse it without looking anything up.
 */

const PUBLIC_V4 = '93.184.216.34';

/** What the production fetcher does with `url` when every name resolves to a public address. */
async function fetcherVerdict(url: string) {
  const lookup = vi.fn(async () => [{ address: PUBLIC_V4, family: 4 as const }]);
  const request = vi.fn<HttpsRequest>(() => {
    throw new Error('a connection was attempted');
  });
  const fetchMedia = makeSafeFetcher({ maxBytes: 1024, timeoutMs: 2_000, lookup, request });
  const error = await fetchMedia(url, 'image').then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MediaFetchError);
  const lookedAnythingUp = lookup.mock.calls.length > 0 || request.mock.calls.length > 0;
  return { refusedOnSight: !lookedAnythingUp, code: (error as MediaFetchError).code };
}

const requestTimeRefuses = (url: string) => {
  const asRef = mediaRefSchema.safeParse({ url, type: 'image' });
  const asImport = importBody.safeParse({ url, type: 'image' });
  expect(asRef.success).toBe(asImport.success);
  return !asImport.success;
};

const url = fc
  .tuple(
    fc.constantFrom('https', 'http', 'ftp', 'HTTPS'),
    fc.constantFrom('', 'user@', 'user:pw@', ':pw@'),
    fc.constantFrom(
      'cdn.example.com',
      'CDN.Example.com.',
      'localhost',
      'localhost.',
      'media.localhost',
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.1',
      '10.0.0.1',
      '169.254.169.254',
      '192.88.99.1',
      PUBLIC_V4,
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[2002:7f00:1::]',
      '[2606:2800:220:1:248:1893:25c8:1946]',
    ),
    fc.constantFrom('', ':443', ':0443', ':8443', ':80', ':22', ':0', ':65535'),
  )
  .map(([scheme, userinfo, host, port]) => `${scheme}://${userinfo}${host}${port}/a.png`);

describe('urlRefusal at request time and in the fetcher', () => {
  it('refuses at request time exactly what the fetcher refuses without a lookup or a connection', async () => {
    await fc.assert(
      fc.asyncProperty(url, async (candidate) => {
        const verdict = await fetcherVerdict(candidate);
        expect(requestTimeRefuses(candidate)).toBe(verdict.refusedOnSight);
        if (verdict.refusedOnSight) expect(verdict.code).toBe('media_url_blocked');
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['https://cdn.example.com:8443/a.png', { rule: 'port', port: 8443 }],
    ['https://cdn.example.com:80/a.png', { rule: 'port', port: 80 }],
    ['http://cdn.example.com/a.png', { rule: 'scheme', scheme: 'http' }],
    ['https://u:p@cdn.example.com/a.png', { rule: 'credentials' }],
    ['https://localhost./a.png', { rule: 'host', reason: expect.stringContaining('localhost') }],
    ['https://0x7f.1/a.png', { rule: 'host', reason: expect.stringContaining('127.0.0.1') }],
  ])('refuses %s for its first broken rule', (candidate, refusal) => {
    expect(urlRefusal(new URL(candidate))).toEqual(refusal);
  });

  it('accepts a public HTTPS URL on 443, written out or not', () => {
    expect(urlRefusal(new URL('https://cdn.example.com/a.png'))).toBeUndefined();
    expect(urlRefusal(new URL('https://cdn.example.com:443/a.png'))).toBeUndefined();
    expect(urlRefusal(new URL(`https://${PUBLIC_V4}/a.png`))).toBeUndefined();
  });

  it('lets a fetcher allow another port, and only that one', () => {
    expect(urlRefusal(new URL('https://cdn.example.com:8443/a.png'), [8443])).toBeUndefined();
    expect(urlRefusal(new URL('https://cdn.example.com/a.png'), [8443])).toEqual({ rule: 'port', port: 443 });
  });

  it('describes each refusal in terms of the caller’s own URL', () => {
    expect(describeUrlRefusal({ rule: 'port', port: 8443 })).toBe('Only port 443 is fetched, not port 8443.');
    expect(describeUrlRefusal({ rule: 'scheme', scheme: 'ftp' })).toMatch(/HTTPS.*ftp/);
    expect(describeUrlRefusal({ rule: 'credentials' })).toMatch(/Credentials/);
    expect(describeUrlRefusal({ rule: 'host', reason: 'localhost is not a public host' })).toMatch(
      /localhost is not a public host/,
    );
  });
});
