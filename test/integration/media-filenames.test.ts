import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * Issue 9, finding 7: an upload's file name is one plain name that reads as what it is; anything
 * else is 400 naming `filename`. An import's name, made up from its URL, is normalised instead.
 */
describe('media file names over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  const json = { 'Content-Type': 'application/json' };

  const uploadUrl = (filename: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/media/upload-url`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ filename, mimeType: 'image/png', sizeBytes: 100 }),
    });
  const importUrl = (url: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/media`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ url, type: 'image' }),
    });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'File names' });
  });
  afterAll(async () => {
    await host.stop();
  });

  describe('an upload refuses', () => {
    it.each([
      ['a right-to-left override', '\u202egnp.exe'],
      ['a left-to-right isolate', 'cat\u2066.png'],
      ['a zero-width space', 'cat\u200b.png'],
      ['a zero-width joiner', 'cat\u200d.png'],
      ['a byte-order mark', '\ufeffcat.png'],
      ['a soft hyphen', 'ca\u00adt.png'],
      ['a line separator', 'cat\u2028.png'],
      ['"."', '.'],
      ['".."', '..'],
      ['only dots', '...'],
      ['only spaces', '   '],
      ['a leading space', ' cat.png'],
      ['a trailing space', 'cat.png '],
      ['a slash', '../../etc/passwd'],
      ['a backslash', '..\\..\\boot.ini'],
      ['a NUL', 'cat\u0000.png'],
      ['a newline', 'cat\n.png'],
      ['an escape', 'cat\u001b[31m.png'],
      ['DEL', 'cat\u007f.png'],
      ['a C1 control', 'cat\u0085.png'],
      ['a lone surrogate', 'cat\ud800.png'],
      ['256 bytes of UTF-8 in 128 characters', 'é'.repeat(128)],
      ['256 ASCII characters', 'a'.repeat(256)],
      ['an empty name', ''],
    ])('%s with 400 naming filename', async (_label, filename) => {
      const body = await expectEnvelope(await uploadUrl(filename), 400, 'INVALID_REQUEST');
      expect(Object.keys(body.details as object)).toEqual(['filename']);
    });
  });

  describe('an upload keeps as given', () => {
    it.each([
      'cat.png',
      '.hidden.png',
      'résumé final (2).png',
      'cafe\u0301.png',
      '日本語の写真.png',
      '🐱.png',
      'a'.repeat(251) + '.png',
      'ü'.repeat(125) + '.png',
    ])('%s', async (filename) => {
      const response = await uploadUrl(filename);
      expect(response.status).toBe(201);
      const { mediaId } = (await response.json()) as { mediaId: string };
      const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/media/${mediaId}`, {
        apiKey: tenant.apiKey,
      });
      expect(((await read.json()) as { filename: string }).filename).toBe(filename);
    });
  });

  describe('an import names its file after the URL, normalised', () => {
    it.each([
      ['a right-to-left override', 'https://cdn.example.com/x/%E2%80%AEgnp.exe', 'gnp.exe'],
      ['encoded path separators', 'https://cdn.example.com/..%2F..%2Fetc%2Fpasswd', '.._.._etc_passwd'],
      ['an encoded backslash', 'https://cdn.example.com/a%5Cb.png', 'a_b.png'],
      ['encoded dots only', 'https://cdn.example.com/%2E%2E', 'download'],
      ['an encoded NUL and newline', 'https://cdn.example.com/cat%00%0A.png', 'cat.png'],
      ['a malformed escape', 'https://cdn.example.com/cat%E0%A4%A.png', 'cat%E0%A4%A.png'],
      ['a lone percent sign', 'https://cdn.example.com/100%', '100%'],
      ['no path', 'https://cdn.example.com/', 'download'],
      ['encoded spaces around', 'https://cdn.example.com/%20cat.png%20', 'cat.png'],
      ['an over-long name', `https://cdn.example.com/${'%C3%A9'.repeat(200)}`, 'é'.repeat(127)],
    ])('%s', async (_label, url, filename) => {
      const response = await importUrl(url);
      expect(response.status).toBe(202);
      expect(((await response.json()) as { filename: string }).filename).toBe(filename);
    });
  });
});
