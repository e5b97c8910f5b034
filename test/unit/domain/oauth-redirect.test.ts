import { describe, expect, it } from 'vitest';
import {
  isAllowedRedirect,
  type RedirectTarget,
  redirectEntryProblems,
  redirectTarget,
  redirectUriProblems,
  redirectWithResult,
} from '../../../shared/domain/oauth-redirect.js';

const target = (value: string): RedirectTarget => {
  const parsed = redirectTarget(value);
  if (!parsed) throw new Error(`not a URL: ${value}`);
  return parsed;
};

const deployed = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

describe('redirectUriProblems', () => {
  it('accepts an HTTPS URL with a query of its own', () => {
    expect(redirectUriProblems('https://app.example.com/done?session=1', deployed)).toEqual([]);
  });

  it.each([
    ['http://app.example.com/done', /HTTPS/],
    ['javascript:alert(1)', /HTTPS/],
    ['https://app.example.com/done#x', /fragment/],
    ['https://app.example.com/done#', /fragment/],
    ['https://me@app.example.com/done', /user name or password/],
    ['/done', /absolute URL/],
    [`https://app.example.com/${'a'.repeat(2048)}`, /2048/],
    ['https://app.example.com/done\n', /control character/],
    ['https://app.example.com/do\tne', /control character/],
    ['https://app.example.com/done?a=\r\nb', /control character/],
    ['https://app.example.com/done?a=\u0085', /control character/],
    ['https://app.example.com/done?a=\u007f', /control character/],
    [' https://app.example.com/done', /begin or end/],
    ['https://app.example.com/done\u00a0', /begin or end/],
    ['https://app.example.com/done?accountId=acc_1', /accountId, error, error_description/],
    ['https://app.example.com/done?x=1&error=access_denied', /accountId, error, error_description/],
    ['https://app.example.com/done?error_description', /accountId, error, error_description/],
  ])('refuses %j', (uri, problem) => {
    expect(redirectUriProblems(uri, deployed)).toEqual([expect.stringMatching(problem)]);
  });

  it('allows plain HTTP to a loopback host only where the deployment allows it', () => {
    for (const uri of ['http://127.0.0.1:3000/cb', 'http://localhost/cb', 'http://[::1]:8080/cb']) {
      expect(redirectUriProblems(uri, local), uri).toEqual([]);
      expect(redirectUriProblems(uri, deployed), uri).toEqual(['Must be HTTPS.']);
    }
    expect(redirectUriProblems('http://127.0.0.2/cb', local)).toHaveLength(1);
    expect(redirectUriProblems('http://localhost.evil.example/cb', local)).toHaveLength(1);
  });
});

describe('redirectEntryProblems', () => {
  it('takes HTTPS and loopback HTTP entries without a query', () => {
    expect(redirectEntryProblems('https://app.example.com/done')).toEqual([]);
    expect(redirectEntryProblems('http://127.0.0.1:5173/cb')).toEqual([]);
    expect(redirectEntryProblems('https://app.example.com/done?x=1')).toEqual([
      expect.stringMatching(/query/),
    ]);
    expect(redirectEntryProblems('http://app.example.com/done')).toHaveLength(1);
  });
});

describe('isAllowedRedirect', () => {
  const list = ['https://app.example.com/connected', 'http://127.0.0.1:5173/cb'];

  it('matches the scheme, host, port and path of an entry, whatever the query', () => {
    expect(isAllowedRedirect('https://app.example.com/connected', list)).toBe(true);
    expect(isAllowedRedirect('https://APP.example.com:443/connected?a=1&b=2', list)).toBe(true);
    expect(isAllowedRedirect('http://127.0.0.1:5173/cb?x', list)).toBe(true);
  });

  it.each([
    'https://app.example.com/connected/more',
    'https://app.example.com/Connected',
    'https://app.example.com:8443/connected',
    'http://app.example.com/connected',
    'https://app.example.com.evil.example/connected',
    'http://127.0.0.1:5174/cb',
    'not a url',
  ])('does not match %s', (uri) => {
    expect(isAllowedRedirect(uri, list)).toBe(false);
  });

  it('matches nothing against an empty list', () => {
    expect(isAllowedRedirect('https://app.example.com/connected', [])).toBe(false);
  });
});

describe('redirectTarget', () => {
  it('is the URL as parsed, printable ASCII only, its encoded query kept as it was', () => {
    expect(redirectTarget('https://APP.example.com:443/cb?s=a%20b+c&t=%2F')).toBe(
      'https://app.example.com/cb?s=a%20b+c&t=%2F',
    );
    expect(redirectTarget('https://a.example/cb?who=Zoë €"<>')).toBe(
      'https://a.example/cb?who=Zo%C3%AB%20%E2%82%AC%22%3C%3E',
    );
    expect(redirectTarget('https://a.example/cb\n')).toBe('https://a.example/cb');
  });

  it('is undefined for what does not parse', () => {
    expect(redirectTarget('https://a.example:99999/cb')).toBeUndefined();
    expect(redirectTarget('not a url')).toBeUndefined();
  });
});

describe('redirectWithResult', () => {
  it("appends ours to the caller's query, which keeps its own encoding", () => {
    expect(redirectWithResult(target('https://a.example/cb'), { accountId: 'acc_1' })).toBe(
      'https://a.example/cb?accountId=acc_1',
    );
    expect(redirectWithResult(target('https://a.example/cb?s=a%20b+c'), { accountId: 'acc_1' })).toBe(
      'https://a.example/cb?s=a%20b+c&accountId=acc_1',
    );
    expect(redirectWithResult(target('https://a.example/cb?'), { error: 'access_denied' })).toBe(
      'https://a.example/cb?error=access_denied',
    );
  });

  it('encodes our values', () => {
    expect(
      redirectWithResult(target('https://a.example/cb'), { error: 'x', error_description: 'A & B. Again?' }),
    ).toBe('https://a.example/cb?error=x&error_description=A+%26+B.+Again%3F');
  });
});
