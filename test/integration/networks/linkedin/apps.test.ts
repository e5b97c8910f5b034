import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_LINKEDIN_COMMUNITY_PRODUCTS,
  FAKE_LINKEDIN_MEMBER_PRODUCTS,
} from '../../../../infra/fake-networks/linkedin/index.js';
import type { OAuthProvider } from '../../../../shared/ports/network-oauth.js';
import { consentAt } from '../../../e2e/support/consent.js';
import {
  aCommunityAccount,
  anAccount,
  aPost,
  aRequest,
  CALLBACK,
  communityOAuth,
  communityToken,
  type LinkedInWorld,
  MEMBER,
  memberToken,
  PAGE,
  patternBytes,
  startWorld,
  storedMedia,
} from './linkedin-world.js';

/**
 * The two kinds of LinkedIn app (docs/networks.md "Two kinds of LinkedIn app"): a member app
 * (Sign In with LinkedIn using OpenID Connect + Share on LinkedIn) and a Community Management app
 * (that product alone, as LinkedIn's portal requires). Each connect asks only for what its app's
 * products grant, against a fake that holds only those products.
 */
const signal = () => AbortSignal.timeout(5_000);

/** What the connector asked for before there were two kinds of app: no real app holds it all. */
const COMBINED_SCOPES =
  'openid profile email w_member_social w_organization_social r_organization_social r_organization_admin';

/** A whole grant through `oauth`: its authorization URL, Allow at the fake, the code exchanged. */
async function connectThrough(oauth: OAuthProvider, clientId: string) {
  const url = oauth.authorizationUrl({ clientId, state: 'st_app', redirectUri: CALLBACK });
  const back = new URL(await consentAt(url));
  expect(back.searchParams.get('error')).toBeNull();
  const tokens = await oauth.exchangeCode(
    { code: back.searchParams.get('code') ?? '', redirectUri: CALLBACK },
    signal(),
  );
  return { url: new URL(url), tokens, profile: await oauth.readProfile(tokens.accessToken, signal()) };
}

describe('the two kinds of LinkedIn app against a fake holding only their products', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it('connects through a member app (Sign In with OpenID Connect + Share on LinkedIn): openid profile w_member_social, the member from userinfo', async () => {
    world = await startWorld({
      apps: [{ clientId: 'member-app', products: FAKE_LINKEDIN_MEMBER_PRODUCTS }],
    });

    const { url, tokens, profile } = await connectThrough(world.network.oauth, 'member-app');

    expect(url.searchParams.get('scope')).toBe('openid profile w_member_social');
    expect(tokens.scopes).toEqual(['openid', 'profile', 'w_member_social']);
    expect(profile).toEqual({
      networkUserId: MEMBER.sub,
      handle: MEMBER.name,
      displayName: MEMBER.name,
      avatarUrl: MEMBER.picture,
    });
    expect(world.fake.control.requests().map((r) => r.endpoint)).toContain('userinfo');
  });

  it('connects through a Community Management app alone: r_basicprofile, the posting and Page scopes and the member’s analytics, the member from /v2/me (no openid)', async () => {
    world = await startWorld({
      apps: [{ clientId: 'community-app', products: FAKE_LINKEDIN_COMMUNITY_PRODUCTS }],
    });

    const { url, tokens, profile } = await connectThrough(communityOAuth(world), 'community-app');

    expect(url.searchParams.get('scope')).toBe(
      'r_basicprofile w_member_social w_organization_social r_organization_social rw_organization_admin r_member_postAnalytics r_member_profileAnalytics w_member_social_feed w_organization_social_feed r_organization_social_feed',
    );
    expect(tokens.scopes).toContain('w_organization_social');
    expect(tokens.scopes).not.toContain('openid');
    expect(profile).toEqual({
      networkUserId: MEMBER.sub,
      handle: MEMBER.vanityName,
      displayName: MEMBER.name,
    });
    const endpoints = world.fake.control.requests().map((r) => r.endpoint);
    expect(endpoints).toContain('me');
    expect(endpoints).not.toContain('userinfo');
  });

  it('refuses the old combined request at either kind of app with unauthorized_scope_error, as LinkedIn does', async () => {
    world = await startWorld();
    for (const app of world.fake.apps) {
      const url = new URL(`${world.fake.oauthUrl}/authorization`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: CALLBACK,
        state: 'st_old',
        scope: COMBINED_SCOPES,
      }).toString();

      const answer = await fetch(url, { redirect: 'manual' });

      expect(answer.status).toBe(302);
      const back = new URL(answer.headers.get('location') ?? '');
      expect(back.searchParams.get('error')).toBe('unauthorized_scope_error');
      expect(back.searchParams.get('error_description')).toMatch(/is not authorized for your application/);
      expect(back.searchParams.get('state')).toBe('st_old');
    }
  });

  it('refuses userinfo to a Community Management token (no openid) and /v2/me to a member token (no r_basicprofile)', async () => {
    world = await startWorld();
    const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

    const userinfo = await fetch(`${world.fake.apiUrl}/v2/userinfo`, bearer(communityToken(world)));
    const me = await fetch(`${world.fake.apiUrl}/v2/me`, bearer(memberToken(world)));

    expect(userinfo.status).toBe(403);
    expect(me.status).toBe(403);
  });

  it('refreshes and revokes a Community Management grant with that app’s client, which the member app’s cannot', async () => {
    world = await startWorld({ issueRefreshTokens: true });
    const community = world.fake.appWith('COMMUNITY_MANAGEMENT_API');
    const { tokens } = await connectThrough(communityOAuth(world), community?.clientId ?? '');

    const refreshed = await communityOAuth(world).refresh?.(tokens, signal());
    await expect(world.network.oauth.refresh?.(tokens, signal())).rejects.toMatchObject({
      networkCode: 'invalid_grant',
    });
    await communityOAuth(world).revoke?.({ ...tokens, accessToken: refreshed?.accessToken ?? '' }, signal());

    expect(refreshed?.scopes).toContain('rw_organization_admin');
    const issued = world.fake.control.accessTokens().find((t) => t.accessToken === refreshed?.accessToken);
    expect(issued).toMatchObject({ clientId: community?.clientId, revoked: true });
  });

  it('publishes as the member through the member app, and as a Page through the Community Management app', async () => {
    world = await startWorld();

    const asMember = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post: aPost({ content: 'From the member app' }) }),
    );
    const asPage = await world.network.connector.publish(
      aRequest(world, communityToken(world), {
        account: aCommunityAccount(),
        post: aPost({
          postId: 'pst_li_page',
          content: 'From the Page',
          platformOptions: { linkedin: { author: PAGE } },
        }),
      }),
    );

    expect(asMember).toMatchObject({ kind: 'published' });
    expect(asPage).toMatchObject({ kind: 'published' });
    expect(world.fake.control.posts().map((post) => [post.author, post.publishedText])).toEqual([
      [`urn:li:person:${MEMBER.sub}`, 'From the member app'],
      [PAGE, 'From the Page'],
    ]);
  });

  it('refuses a Page author for an account connected through the member app, before asking LinkedIn anything', async () => {
    world = await startWorld();
    const post = aPost({ platformOptions: { linkedin: { author: PAGE } } });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { account: anAccount({ networkApp: 'LINKEDIN' }), post }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'AUTHOR_NOT_ALLOWED' });
    expect(outcome.kind === 'failed' && outcome.message).toMatch(/Community Management app/);
    expect(world.fake.control.requests().filter((r) => r.path.startsWith('/rest/'))).toEqual([]);
    expect(world.fake.control.posts()).toEqual([]);
  });

  it('sends every upload with a Content-Length: an image and a document publish, where the fake refuses a chunked body (411)', async () => {
    world = await startWorld();
    const image = storedMedia(world.bytes, 'image', patternBytes(5_000));
    const document = storedMedia(world.bytes, 'document', patternBytes(7_000, 3), { filename: 'deck.pdf' });
    world.fake.control.setProcessingChecks('document', 0);

    const imagePost = await world.network.connector.publish(
      aRequest(world, memberToken(world), {
        post: aPost({ postType: 'image', media: [image.ref] }),
        media: [image.delivered],
      }),
    );
    const documentPost = await world.network.connector.publish(
      aRequest(world, memberToken(world), {
        post: aPost({
          postId: 'pst_li_doc',
          content: 'The deck',
          postType: 'document',
          media: [document.ref],
        }),
        media: [document.delivered],
      }),
    );

    expect(imagePost).toMatchObject({ kind: 'published' });
    expect(documentPost).toMatchObject({ kind: 'published' });
    expect(world.fake.control.uploads().map((upload) => upload.bytes?.length)).toEqual([5_000, 7_000]);
    // The same PUT, streamed without a declared length, is what LinkedIn's upload URLs refuse.
    const init = await fetch(`${world.fake.apiUrl}/rest/images?action=initializeUpload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${memberToken(world)}`,
        'LinkedIn-Version': '202605',
        'X-Restli-Protocol-Version': '2.0.0',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ initializeUploadRequest: { owner: `urn:li:person:${MEMBER.sub}` } }),
    });
    const { value } = (await init.json()) as { value: { uploadUrl: string } };
    const chunked = await fetch(value.uploadUrl, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${memberToken(world)}`, 'Content-Type': 'application/octet-stream' },
      body: new Blob([patternBytes(100)]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });
});
