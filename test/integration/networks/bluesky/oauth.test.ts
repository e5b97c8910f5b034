import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantRefusedError } from '../../../../shared/ports/network-oauth.js';
import { type BlueskyWorld, CALLBACK, connect, startWorld, USER } from './bluesky-world.js';

/** Bluesky's OAuth (AT Protocol profile) against its fake: PAR, DPoP with nonces, private_key_jwt, single-use refresh. */
describe('Bluesky OAuth', () => {
  let world: BlueskyWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('connects through the consent page: the session names the DID, its PDS and a DPoP key, and reads the profile', async () => {
    const tokens = await connect(world);
    expect(tokens.scopes).toEqual(['atproto', 'transition:generic']);
    expect(tokens.refreshToken).toBeDefined();
    expect(Date.parse(tokens.expiresAt ?? '')).toBeGreaterThan(Date.now());
    const session = JSON.parse(tokens.accessToken) as Record<string, unknown>;
    expect(session).toMatchObject({ did: USER.did, pds: world.fake.pdsUrl, issuer: world.fake.entrywayUrl });
    expect(session.key).toMatchObject({ kty: 'EC', crv: 'P-256' });
    // The network's token is inside, bound to the key the PAR request proved.
    expect(world.fake.control.sessions().at(-1)?.accessToken).toBe(session.token);

    const profile = await world.network.oauth.readProfile(tokens.accessToken, AbortSignal.timeout(5000));
    expect(profile).toEqual({
      networkUserId: USER.did,
      handle: `@${USER.handle}`,
      displayName: USER.displayName,
    });
  });

  it('has no authorization URL without the push (AT Protocol servers take pushed requests only)', () => {
    expect(() =>
      world.network.oauth.authorizationUrl({
        clientId: world.fake.clientId,
        state: 's',
        redirectUri: CALLBACK,
      }),
    ).toThrow(/pushed/);
  });

  it("answers the servers' use_dpop_nonce by retrying once with their nonce (not an auth failure)", async () => {
    world.fake.control.rotateNonces();
    const before = world.fake.control.seen().length;
    const tokens = await connect(world, 'st_nonce');
    expect(JSON.parse(tokens.accessToken)).toMatchObject({ did: USER.did });
    const calls = world.fake.control
      .seen()
      .slice(before)
      .map((call) => call.endpoint);
    // A fresh session key has no nonce yet: PAR and token are each refused once, then accepted.
    expect(calls.filter((endpoint) => endpoint === 'par')).toHaveLength(2);
    expect(calls.filter((endpoint) => endpoint === 'token')).toHaveLength(2);
  });

  it('refreshes with the single-use refresh token: the new one works, the old one is refused', async () => {
    const tokens = await connect(world, 'st_refresh');
    const refreshed = await world.network.oauth.refresh?.(tokens, AbortSignal.timeout(5000));
    expect(refreshed?.refreshToken).toBeDefined();
    expect(refreshed?.refreshToken).not.toBe(tokens.refreshToken);
    expect(JSON.parse(refreshed?.accessToken ?? '{}')).toMatchObject({ did: USER.did });
    await expect(world.network.oauth.refresh?.(tokens, AbortSignal.timeout(5000))).rejects.toBeInstanceOf(
      GrantRefusedError,
    );
    const again = await world.network.oauth.refresh?.(refreshed ?? tokens, AbortSignal.timeout(5000));
    expect(again?.accessToken).toBeDefined();
  });

  it('refuses a code exchanged with another verifier (PKCE), as invalid_grant', async () => {
    const oauth = world.network.oauth;
    const url = await oauth.pushedAuthorizationUrl?.(
      {
        clientId: world.fake.clientId,
        state: 'st_pkce',
        redirectUri: CALLBACK,
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      },
      AbortSignal.timeout(5000),
    );
    const { consentAt } = await import('../../../e2e/support/consent.js');
    const code = new URL(await consentAt(url ?? '')).searchParams.get('code') ?? '';
    await expect(
      oauth.exchangeCode(
        { code, redirectUri: CALLBACK, codeVerifier: 'not-the-verifier-of-that-challenge-000000' },
        AbortSignal.timeout(5000),
      ),
    ).rejects.toBeInstanceOf(GrantRefusedError);
  });

  it('revokes the session: its refresh token stops working', async () => {
    const tokens = await connect(world, 'st_revoke');
    await world.network.oauth.revoke?.(tokens, AbortSignal.timeout(5000));
    await expect(world.network.oauth.refresh?.(tokens, AbortSignal.timeout(5000))).rejects.toBeInstanceOf(
      GrantRefusedError,
    );
  });
});
