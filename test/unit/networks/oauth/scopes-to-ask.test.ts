import { describe, expect, it } from 'vitest';
import { INSTAGRAM_SCOPES, makeInstagramOAuth } from '../../../../shared/networks/instagram/oauth.js';
import { LINKEDIN_COMMUNITY_SCOPES, makeLinkedInOAuth } from '../../../../shared/networks/linkedin/oauth.js';
import { makeAuthorizationCodeOAuth } from '../../../../shared/networks/oauth/authorization-code.js';
import type { AuthorizationCodeDeclaration } from '../../../../shared/networks/oauth/authorization-code-declaration.js';
import { scopesToAsk } from '../../../../shared/networks/oauth/scopes-to-ask.js';
import { makeTikTokOAuth, TIKTOK_SCOPES } from '../../../../shared/networks/tiktok/oauth.js';
import { makeXOAuth, X_SCOPES } from '../../../../shared/networks/x/oauth.js';
import type { AppCredentials } from '../../../../shared/ports/app-credentials.js';
import type { OAuthProvider } from '../../../../shared/ports/network-oauth.js';

const appCredentials = async (): Promise<AppCredentials> => ({ clientId: 'id', clientSecret: 'secret' });
const REQUEST = { clientId: 'id', state: 'st', redirectUri: 'https://api.example.com/v1/oauth/x/callback' };

/** The scopes a consent page address asks for, split on the network's delimiter. */
function askedBy(oauth: OAuthProvider, askMetricsScopes?: boolean): string[] {
  const url = new URL(
    oauth.authorizationUrl({ ...REQUEST, ...(askMetricsScopes !== undefined && { askMetricsScopes }) }),
  );
  return (url.searchParams.get('scope') ?? '').split(/[ ,]/).filter(Boolean);
}

describe('scopesToAsk: the metrics-only scopes are left out for an app without them', () => {
  const declared = { scopes: ['basic', 'publish', 'stats', 'list'], metricsOnlyScopes: ['list', 'stats'] };

  it('asks every declared scope unless the operator says the app lacks the metrics ones', () => {
    expect(scopesToAsk(declared, {})).toEqual(['basic', 'publish', 'stats', 'list']);
    expect(scopesToAsk(declared, { askMetricsScopes: true })).toEqual(['basic', 'publish', 'stats', 'list']);
    expect(scopesToAsk(declared, { askMetricsScopes: false })).toEqual(['basic', 'publish']);
  });

  it('leaves everything where the network has no metrics-only scope (X, YouTube)', () => {
    expect(scopesToAsk({ scopes: ['tweet.read', 'users.read'] }, { askMetricsScopes: false })).toEqual([
      'tweet.read',
      'users.read',
    ]);
  });
});

describe('scopesToAsk: the comment-only scopes are left out for an app not approved for them', () => {
  const declared = {
    scopes: ['basic', 'publish', 'stats', 'comment'],
    metricsOnlyScopes: ['stats'],
    commentOnlyScopes: ['comment'],
  };

  it('asks them unless the operator says the app lacks them, independently of the metrics ones', () => {
    expect(scopesToAsk(declared, {})).toEqual(['basic', 'publish', 'stats', 'comment']);
    expect(scopesToAsk(declared, { askCommentScopes: false })).toEqual(['basic', 'publish', 'stats']);
    expect(scopesToAsk(declared, { askCommentScopes: false, askMetricsScopes: false })).toEqual([
      'basic',
      'publish',
    ]);
  });

  it('leaves out the scopes only some options need when the app is not approved for them', () => {
    const withOption = { scopes: ['basic', 'publish', 'upload'], optionOnlyScopes: ['upload'] };
    expect(scopesToAsk(withOption, {})).toEqual(['basic', 'publish', 'upload']);
    expect(scopesToAsk(withOption, { askOptionScopes: false })).toEqual(['basic', 'publish']);
  });

  it('reaches the consent page through the authorization-code block', () => {
    const oauth = makeAuthorizationCodeOAuth(
      {
        network: 'Example',
        scopes: ['publish', 'comment'],
        commentOnlyScopes: ['comment'],
        usesPkce: false,
        authorize: { url: 'https://example.com/authorize' },
        token: { url: 'https://example.com/token', clientAuthentication: 'basic', withoutScope: 'asked' },
        readProfile: async () => ({ networkUserId: 'u1', handle: '@u1', displayName: 'U' }),
      } satisfies AuthorizationCodeDeclaration,
      { appCredentials },
    );
    const asked = (askCommentScopes?: boolean) =>
      new URL(
        oauth.authorizationUrl({ ...REQUEST, ...(askCommentScopes !== undefined && { askCommentScopes }) }),
      ).searchParams.get('scope');

    expect(asked()).toBe('publish comment');
    expect(asked(false)).toBe('publish');
  });
});

describe("each network's consent page with askMetricsScopes false", () => {
  it('TikTok: user.info.basic, video.publish and video.upload only, without video.list and user.info.stats', () => {
    const oauth = makeTikTokOAuth({
      authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize',
      apiUrl: 'https://open.tiktokapis.com',
      appCredentials,
    });

    expect(askedBy(oauth)).toEqual([...TIKTOK_SCOPES]);
    expect(askedBy(oauth, false)).toEqual(['user.info.basic', 'video.publish', 'video.upload']);
    expect(oauth.metricsOnlyScopes).toEqual(['video.list', 'user.info.stats']);
  });

  it('Instagram: without instagram_business_manage_insights (the comment scope is asked)', () => {
    const oauth = makeInstagramOAuth({
      authorizeUrl: 'https://www.instagram.com/oauth/authorize',
      oauthUrl: 'https://api.instagram.com/oauth',
      graphUrl: 'https://graph.instagram.com',
      appCredentials,
    });

    expect(askedBy(oauth)).toEqual([...INSTAGRAM_SCOPES]);
    expect(askedBy(oauth, false)).toEqual([
      'instagram_business_basic',
      'instagram_business_content_publish',
      'instagram_business_manage_comments',
    ]);
  });

  it('LinkedIn Community Management: without the member analytics, keeping rw_organization_admin (Page roles)', () => {
    const oauth = makeLinkedInOAuth({
      kind: 'community',
      oauthUrl: 'https://www.linkedin.com/oauth/v2',
      apiUrl: 'https://api.linkedin.com',
      appCredentials,
    });

    expect(askedBy(oauth)).toEqual([...LINKEDIN_COMMUNITY_SCOPES]);
    expect(askedBy(oauth, false)).toEqual([
      'r_basicprofile',
      'w_member_social',
      'w_organization_social',
      'r_organization_social',
      'rw_organization_admin',
      'w_member_social_feed',
      'w_organization_social_feed',
      'r_organization_social_feed',
    ]);
  });

  it('X: unchanged, its metrics need only the scopes publishing needs', () => {
    const oauth = makeXOAuth({
      apiUrl: 'https://api.x.com',
      authorizeUrl: 'https://x.com/i/oauth2/authorize',
      appCredentials,
    });

    expect(askedBy(oauth, false)).toEqual([...X_SCOPES]);
  });
});

describe('a token answer without scopes records what this app asked for', () => {
  const declaration: AuthorizationCodeDeclaration = {
    network: 'Net',
    scopes: ['basic', 'stats'],
    metricsOnlyScopes: ['stats'],
    usesPkce: false,
    authorize: { url: 'https://net.test/authorize' },
    token: { url: 'https://net.test/token', clientAuthentication: 'form', withoutScope: 'asked' },
    readProfile: async () => ({ networkUserId: 'u1', handle: '@u1', displayName: 'U' }),
  };
  const tokenAnswer = (async () =>
    new Response(JSON.stringify({ access_token: 'at', expires_in: 60 }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })) as typeof fetch;
  const exchange = (app: AppCredentials) =>
    makeAuthorizationCodeOAuth(declaration, {
      appCredentials: async () => app,
      fetch: tokenAnswer,
    }).exchangeCode({ code: 'c', redirectUri: REQUEST.redirectUri }, AbortSignal.timeout(5_000));

  it('an app without the metrics scopes: not them', async () => {
    const tokens = await exchange({ clientId: 'id', clientSecret: 's', askMetricsScopes: false });

    expect(tokens.scopes).toEqual(['basic']);
  });

  it('an app with them: all', async () => {
    const tokens = await exchange({ clientId: 'id', clientSecret: 's' });

    expect(tokens.scopes).toEqual(['basic', 'stats']);
  });
});
