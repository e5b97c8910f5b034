import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrantRefusedError } from '../../../../shared/ports/network-oauth.js';
import { CALLBACK, type FacebookWorld, PAGE, startWorld, USER } from './facebook-world.js';

/** The consent page as a person uses it: the form's hidden fields, the Pages ticked, Continue. */
async function consent(
  world: FacebookWorld,
  options: { pages?: string[]; decline?: string[]; decision?: 'approve' | 'deny' } = {},
): Promise<URL> {
  const authorizeUrl = await world.network.oauth.authorizationUrl({
    clientId: world.fake.clientId,
    state: 'state-1',
    redirectUri: CALLBACK,
  });
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
  const form = new URLSearchParams();
  for (const input of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(String(input[1]), String(input[2]).replace(/&#44;/g, ','));
  form.set('user', USER.userId);
  for (const pageId of options.pages ?? []) form.append('page', pageId);
  if (options.decline) form.set('decline', options.decline.join(','));
  form.set('decision', options.decision ?? 'approve');
  const answer = await fetch(new URL(action, authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(String(answer.headers.get('location')));
}

describe('Facebook Login against the fake: one account per Page the person may publish to', () => {
  let world: FacebookWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  const signal = () => AbortSignal.timeout(5_000);

  it('asks the Pages permissions comma-separated on the versioned dialog, without PKCE', async () => {
    const url = new URL(
      await world.network.oauth.authorizationUrl({
        clientId: world.fake.clientId,
        state: 's',
        redirectUri: CALLBACK,
      }),
    );
    expect(url.pathname).toBe('/v24.0/dialog/oauth');
    expect(url.searchParams.get('scope')).toBe(
      'pages_show_list,pages_manage_posts,pages_read_engagement,publish_video,pages_manage_engagement',
    );
    expect(url.searchParams.get('code_challenge')).toBeNull();
    expect(world.network.oauth.refresh).toBeUndefined();
  });

  it('leaves pages_manage_engagement (first comments only) out for an app not approved for it', async () => {
    const url = new URL(
      await world.network.oauth.authorizationUrl({
        clientId: world.fake.clientId,
        state: 's',
        redirectUri: CALLBACK,
        askCommentScopes: false,
      }),
    );
    expect(url.searchParams.get('scope')).toBe(
      'pages_show_list,pages_manage_posts,pages_read_engagement,publish_video',
    );
  });

  it('exchanges the code for a long-lived user token, reads the grants, and yields each Page with CREATE_CONTENT and its own token', async () => {
    const back = await consent(world);
    const code = String(back.searchParams.get('code'));
    const tokens = await world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal());
    // About 60 days (Meta's 5,183,944 s), and the grants as /me/permissions says.
    expect(Date.parse(String(tokens.expiresAt))).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);
    expect(tokens.refreshToken).toBeUndefined();
    expect(tokens.scopes).toEqual(
      expect.arrayContaining(['pages_manage_posts', 'publish_video', 'pages_show_list']),
    );
    const exchanges = world.fake.control.seen().filter((seen) => seen.endpoint === 'token');
    expect(exchanges.map((seen) => seen.params.grant_type)).toEqual([
      'authorization_code',
      'fb_exchange_token',
    ]);

    const accounts = await world.network.oauth.readAccounts?.(tokens, signal());
    expect(accounts?.map((account) => account.profile)).toEqual([
      {
        networkUserId: PAGE.pageId,
        handle: '@fakebakery',
        displayName: 'Fake Bakery',
        avatarUrl: 'https://scontent.xx.fbcdn.net/fake/bakery.jpg',
      },
      { networkUserId: '104000000000002', handle: 'Fake Bakery Events', displayName: 'Fake Bakery Events' },
    ]);
    // Each Page's token is its own, never expires, and reads the Page itself.
    const [first] = accounts ?? [];
    expect(first?.tokens.accessToken).not.toBe(tokens.accessToken);
    expect(first?.tokens.expiresAt).toBeUndefined();
    const profile = await world.network.oauth.readProfile(String(first?.tokens.accessToken), signal());
    expect(profile.networkUserId).toBe(PAGE.pageId);
  });

  it('yields only the Pages the person ticked in the dialog', async () => {
    const back = await consent(world, { pages: ['104000000000002'] });
    const tokens = await world.network.oauth.exchangeCode(
      { code: String(back.searchParams.get('code')), redirectUri: CALLBACK },
      signal(),
    );
    const accounts = await world.network.oauth.readAccounts?.(tokens, signal());
    expect(accounts?.map((account) => account.profile.networkUserId)).toEqual(['104000000000002']);
  });

  it('yields no account when the person unticked pages_manage_posts, or picked only a Page they cannot post on', async () => {
    const declined = await consent(world, { decline: ['pages_manage_posts'] });
    const tokens = await world.network.oauth.exchangeCode(
      { code: String(declined.searchParams.get('code')), redirectUri: CALLBACK },
      signal(),
    );
    expect(tokens.scopes).not.toContain('pages_manage_posts');
    expect(await world.network.oauth.readAccounts?.(tokens, signal())).toEqual([]);

    const fanClub = await consent(world, { pages: ['104000000000003'] });
    const fanTokens = await world.network.oauth.exchangeCode(
      { code: String(fanClub.searchParams.get('code')), redirectUri: CALLBACK },
      signal(),
    );
    expect(await world.network.oauth.readAccounts?.(fanTokens, signal())).toEqual([]);
  });

  it('refuses a used code for good, and says access_denied when the person cancels', async () => {
    const back = await consent(world);
    const code = String(back.searchParams.get('code'));
    await world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal());
    await expect(
      world.network.oauth.exchangeCode({ code, redirectUri: CALLBACK }, signal()),
    ).rejects.toBeInstanceOf(GrantRefusedError);
    const cancelled = await consent(world, { decision: 'deny' });
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
  });

  it('reads every Page when the person manages more than one read holds', async () => {
    const many = Array.from({ length: 130 }, (_, index) => ({
      pageId: String(200000000000000 + index),
      name: `Shop ${index}`,
      tasks: ['CREATE_CONTENT'],
    }));
    world.fake.control.addUser({ userId: '10160000000000009', name: 'Chain owner', pages: many });
    const token = world.fake.control.issueUserToken('10160000000000009');
    const accounts = await world.network.oauth.readAccounts?.(
      { accessToken: token, scopes: ['pages_show_list', 'pages_manage_posts'] },
      signal(),
    );
    expect(accounts).toHaveLength(130);
    expect(world.fake.control.seen().filter((seen) => seen.endpoint === 'accounts')).toHaveLength(2);
  });
});
