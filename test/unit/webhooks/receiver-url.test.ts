import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { urlRefusal } from '../../../shared/domain/fetchable-url.js';
import {
  describeWebhookUrlRefusal,
  isLoopbackReceiverUrl,
  isWebhookReceiverPort,
  webhookUrlProblem,
  webhookUrlRefusal,
} from '../../../shared/domain/webhooks/receiver-url.js';

const LOCAL = { allowLoopbackHttp: true };
const refusal = (text: string, options = {}) => webhookUrlRefusal(new URL(text), options);

describe('webhook receiver URLs at registration', () => {
  it.each([
    'https://hooks.example.com/in',
    'https://hooks.example.com:443/in',
    'https://hooks.example.com:8443/in?source=smcp',
    'https://hooks.example.com:1024/',
    'https://hooks.example.com:65535/',
    'https://93.184.216.34/hook',
    'https://[2606:2800:220:1:248:1893:25c8:1946]:9000/hook',
  ])('accepts %s', (text) => {
    expect(refusal(text)).toBeUndefined();
    expect(webhookUrlProblem(text)).toBeUndefined();
  });

  it.each([
    ['http://hooks.example.com/in', { rule: 'scheme', scheme: 'http' }],
    ['ftp://hooks.example.com/in', { rule: 'scheme', scheme: 'ftp' }],
    ['https://user:pass@hooks.example.com/in', { rule: 'credentials' }],
    ['https://hooks.example.com:80/in', { rule: 'port', port: 80 }],
    ['https://hooks.example.com:22/in', { rule: 'port', port: 22 }],
    ['https://hooks.example.com:1023/in', { rule: 'port', port: 1023 }],
    ['https://localhost/in', { rule: 'host', reason: expect.stringContaining('localhost') }],
    ['https://hooks.localhost/in', { rule: 'host', reason: expect.stringContaining('localhost') }],
    ['https://127.0.0.1:8443/in', { rule: 'host', reason: expect.stringContaining('127.0.0.1') }],
    ['https://10.1.2.3/in', { rule: 'host', reason: expect.stringContaining('10.1.2.3') }],
    ['https://192.168.0.10/in', { rule: 'host', reason: expect.stringContaining('192.168.0.10') }],
    ['https://172.16.5.5/in', { rule: 'host', reason: expect.stringContaining('172.16.5.5') }],
    [
      'https://169.254.169.254/latest/meta-data',
      { rule: 'host', reason: expect.stringContaining('169.254') },
    ],
    ['https://[fe80::1]/in', { rule: 'host', reason: expect.stringContaining('fe80::1') }],
    ['https://[fd00::1]/in', { rule: 'host', reason: expect.stringContaining('fd00::1') }],
    ['https://[::ffff:10.0.0.1]/in', { rule: 'host', reason: expect.stringContaining('private') }],
    ['https://0x7f000001/in', { rule: 'host', reason: expect.stringContaining('127.0.0.1') }],
  ])('refuses %s for its first broken rule', (text, expected) => {
    expect(refusal(text)).toEqual(expected);
    expect(webhookUrlProblem(text)).toEqual(expect.any(String));
  });

  it('keeps the media fetcher’s rules for everything but the port (one rule set, not a copy)', () => {
    const hosts = fc.constantFrom(
      'hooks.example.com',
      'localhost',
      'a.localhost',
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '93.184.216.34',
      '[::1]',
      '[fe80::1]',
      '[2606:2800:220:1:248:1893:25c8:1946]',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('https', 'http', 'ftp'),
        fc.constantFrom('', 'u:p@', 'u@'),
        hosts,
        fc.constantFrom('', ':443', ':8443', ':80', ':22', ':3000'),
        (scheme, userinfo, host, port) => {
          const url = new URL(`${scheme}://${userinfo}${host}${port}/hook`);
          const ours = webhookUrlRefusal(url);
          // The media rules with this URL's own port allowed; the checks run scheme, credentials, port, host.
          const number = url.port === '' ? 443 : Number(url.port);
          const media = urlRefusal(url, [number]);
          const beforePort = media && media.rule !== 'host' ? media : undefined;
          const portRefusal = isWebhookReceiverPort(number) ? undefined : { rule: 'port', port: number };
          expect(ours).toEqual(beforePort ?? portRefusal ?? media);
        },
      ),
    );
  });

  it('allows exactly 443 and the unprivileged ports', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 70_000 }), (port) => {
        expect(isWebhookReceiverPort(port)).toBe(port === 443 || (port >= 1024 && port <= 65_535));
      }),
    );
  });

  it('refuses what is not a URL, and a URL longer than 2048 characters', () => {
    expect(webhookUrlProblem('hooks.example.com/in')).toBe('Not a URL.');
    expect(webhookUrlProblem(`https://hooks.example.com/${'a'.repeat(2048)}`)).toMatch(/2048/);
  });
});

describe('loopback receivers on the local host', () => {
  it.each([
    'http://127.0.0.1:4000/hook',
    'http://localhost:4000/hook',
    'http://LOCALHOST:4000/hook',
    'http://127.0.0.1/hook',
  ])('accepts %s with allowLoopbackHttp, and only with it', (text) => {
    expect(refusal(text, LOCAL)).toBeUndefined();
    expect(webhookUrlProblem(text, LOCAL)).toBeUndefined();
    expect(refusal(text)).toBeDefined();
    expect(isLoopbackReceiverUrl(new URL(text))).toBe(true);
  });

  it.each([
    ['http://127.0.0.2:4000/hook', 'another loopback address'],
    ['http://[::1]:4000/hook', 'IPv6 loopback'],
    ['http://app.localhost:4000/hook', 'a .localhost name'],
    ['http://u:p@127.0.0.1:4000/hook', 'credentials'],
    ['http://10.0.0.5:4000/hook', 'a private address'],
    ['http://192.168.1.20:8080/hook', 'a LAN address'],
    ['http://169.254.169.254/latest/meta-data', 'the metadata address'],
    ['http://hooks.example.com/hook', 'plain HTTP to a public host'],
    ['https://127.0.0.1:4000/hook', 'HTTPS on loopback'],
  ])('still refuses %s (%s)', (text) => {
    expect(refusal(text, LOCAL)).toBeDefined();
    expect(isLoopbackReceiverUrl(new URL(text))).toBe(false);
  });

  it('relaxes nothing for public receivers', () => {
    expect(refusal('https://hooks.example.com:8443/in', LOCAL)).toBeUndefined();
    expect(refusal('https://hooks.example.com:22/in', LOCAL)).toEqual({ rule: 'port', port: 22 });
  });
});

describe('describeWebhookUrlRefusal', () => {
  it('speaks of webhook URLs, and mentions loopback HTTP only where it is allowed', () => {
    expect(describeWebhookUrlRefusal({ rule: 'scheme', scheme: 'http' })).toBe(
      'A webhook URL must use HTTPS, not http.',
    );
    expect(describeWebhookUrlRefusal({ rule: 'scheme', scheme: 'http' }, LOCAL)).toMatch(
      /127\.0\.0\.1 or localhost/,
    );
    expect(describeWebhookUrlRefusal({ rule: 'port', port: 22 })).toBe(
      'A webhook receiver may listen on port 443 or 1024–65535, not port 22.',
    );
    expect(describeWebhookUrlRefusal({ rule: 'credentials' })).toMatch(/Credentials/);
    expect(
      describeWebhookUrlRefusal({
        rule: 'host',
        reason: '10.0.0.1 is a private, loopback or reserved address',
      }),
    ).toMatch(/Not a public address: 10\.0\.0\.1/);
  });
});
