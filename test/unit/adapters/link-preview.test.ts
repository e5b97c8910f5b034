import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardOf, makeLinkPreviewReader } from '../../../shared/adapters/http/link-preview.js';

/**
 * The link card reader against a real HTTP server on 127.0.0.1 (allowed here as the local host
 * allows its own pages), and its refusal of the same server where only public addresses are.
 */
let server: Server;
let base = '';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(2000, 1)]);

function route(req: IncomingMessage, res: ServerResponse) {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  switch (path) {
    case '/article':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html><head><title>Fallback title</title>
         <meta property="og:title" content="Spring &amp; summer">
         <meta content="Linen, cotton and more." property="og:description">
         <meta property="og:image" content="/images/card.png">
         </head><body><meta property="og:title" content="not in the head"></body></html>`,
      );
    case '/plain':
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><title> Plain page </title><meta name="description" content="Just text."></head></html>',
        );
    case '/moved':
      return res.writeHead(301, { location: '/article' }).end();
    case '/loop':
      return res.writeHead(302, { location: '/loop' }).end();
    case '/json':
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}');
    case '/missing':
      return res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    case '/images/card.png':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    default:
      return res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loopbackAllowed = () => makeLinkPreviewReader({ isAllowedAddress: () => true, allowPlainHttp: true });
const signal = () => AbortSignal.timeout(5000);

describe('the link card reader', () => {
  it("reads a page's Open Graph tags from its head, entities decoded, the image made absolute", async () => {
    await expect(loopbackAllowed().readPage(`${base}/article`, signal())).resolves.toEqual({
      title: 'Spring & summer',
      description: 'Linen, cotton and more.',
      imageUrl: `${base}/images/card.png`,
    });
  });

  it('falls back to <title> and the description meta where a page has no Open Graph tags', async () => {
    await expect(loopbackAllowed().readPage(`${base}/plain`, signal())).resolves.toEqual({
      title: 'Plain page',
      description: 'Just text.',
    });
  });

  it('follows a redirect, and gives up on a loop, an error page or something not HTML', async () => {
    const reader = loopbackAllowed();
    await expect(reader.readPage(`${base}/moved`, signal())).resolves.toMatchObject({
      title: 'Spring & summer',
    });
    await expect(reader.readPage(`${base}/loop`, signal())).resolves.toBeUndefined();
    await expect(reader.readPage(`${base}/missing`, signal())).resolves.toBeUndefined();
    await expect(reader.readPage(`${base}/json`, signal())).resolves.toBeUndefined();
  });

  it('reads an image within its size limit, and none above it or of another type', async () => {
    const reader = loopbackAllowed();
    const image = await reader.readImage(`${base}/images/card.png`, 10_000, signal());
    expect(image?.contentType).toBe('image/png');
    expect(image?.bytes.length).toBe(PNG.length);
    await expect(reader.readImage(`${base}/images/card.png`, 1000, signal())).resolves.toBeUndefined();
    await expect(reader.readImage(`${base}/article`, 10_000, signal())).resolves.toBeUndefined();
  });

  it('never reads a page at a private address where only public ones are allowed', async () => {
    const reader = makeLinkPreviewReader({ allowPlainHttp: true });
    await expect(reader.readPage(`${base}/article`, signal())).resolves.toBeUndefined();
    await expect(reader.readPage('https://127.0.0.1/article', signal())).resolves.toBeUndefined();
  });

  it('leaves out an image that is not a web address', () => {
    const card = cardOf(
      '<head><meta property="og:image" content="javascript:alert(1)"></head>',
      'https://a.test/',
    );
    expect(card).toBeUndefined();
  });
});
