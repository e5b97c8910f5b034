import { describe, expect, it } from 'vitest';
import {
  isAllowedRedirect,
  redirectEntryProblems,
  redirectUriProblems,
  redirectWithResult,
} from '../../../shared/domain/oauth-redirect.js';

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
  ])('refuses %s', (uri, problem) => {
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

describe('redirectWithResult', () => {
  it("appends ours to the caller's query, which stays byte for byte", () => {
    expect(redirectWithResult('https://a.example/cb', { accountId: 'acc_1' })).toBe(
      'https://a.example/cb?accountId=acc_1',
    );
    expect(redirectWithResult('https://a.example/cb?s=a%20b+c', { accountId: 'acc_1' })).toBe(
      'https://a.example/cb?s=a%20b+c&accountId=acc_1',
    );
    expect(redirectWithResult('https://a.example/cb?', { error: 'access_denied' })).toBe(
      'https://a.example/cb?error=access_denied',
    );
  });

  it('encodes our values', () => {
    expect(
      redirectWithResult('https://a.example/cb', { error: 'x', error_description: 'A & B. Again?' }),
    ).toBe('https://a.example/cb?error=x&error_description=A+%26+B.+Again%3F');
  });
});
