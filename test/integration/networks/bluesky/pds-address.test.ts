import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lookup, ResolvedAddress } from '../../../../shared/adapters/http/pinned-connection.js';
import { makeBlueskyNetworkWith } from '../../../../shared/networks/bluesky/index.js';
import { decodeSession, encodeSession } from '../../../../shared/networks/bluesky/session.js';
import type { Network } from '../../../../shared/networks/network.js';
import { GrantRefusedError, type TokenSet } from '../../../../shared/ports/network-oauth.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import {
  anAccount,
  aPost,
  type BlueskyWorld,
  connect,
  publishRequest,
  startWorld,
  USER,
} from './bluesky-world.js';

/**
 * A DID document is its account holder's to write: its PDS may be a public-looking NAME that
 * resolves to a private or metadata address. The PDS calls connect only to public addresses
 * (the PLC directory here is a loopback fake, so loopback is allowed, as pds-address.ts allows
 * it), checked on the addresses resolved once and connected to. A plain TCP "trap" on loopback
 * stands where the PDS name could reach: it counts every connection made to it.
 */

const PDS_HOST = 'pds.attacker.test';
const zone: Record<string, ResolvedAddress[]> = {};
const lookup = vi.fn<Lookup>(async (hostname) => {
  const answer = zone[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
});

const REFUSED: [string, ResolvedAddress[]][] = [
  ['a private address', [{ address: '10.0.0.1', family: 4 }]],
  ['the metadata address', [{ address: '169.254.169.254', family: 4 }]],
  [
    'the reachable loopback trap and the metadata address',
    [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ],
  ],
];

let trap: Server;
let trapPort = 0;
let trapConnections = 0;
let world: BlueskyWorld;
let tokens: TokenSet;

beforeAll(async () => {
  trap = createTcpServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
  world = await startWorld();
  tokens = await connect(world);
});
afterAll(async () => {
  await new Promise<void>((resolve) => trap.close(() => resolve()));
  await world?.stop();
});

const pdsUrl = () => `https://${PDS_HOST}:${trapPort}`;

function guardedNetwork(plcUrl = world.fake.plcUrl): Network {
  return makeBlueskyNetworkWith({ lookup })({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      BLUESKY_ENTRYWAY_URL: world.fake.entrywayUrl,
      BLUESKY_PLC_URL: plcUrl,
      BLUESKY_VIDEO_URL: world.fake.videoUrl,
    },
    appCredentials: async () => ({ clientId: world.fake.clientId, clientSecret: world.fake.clientSecret }),
  });
}

/** The connected session, moved to a PDS at `pdsUrl()` (as a DID document could have named it). */
function tokensOnTheNamedPds(): TokenSet {
  const moved = (token: string | undefined) => {
    const session = token ? decodeSession(token) : undefined;
    if (!session) throw new Error('The connect gave no Bluesky session.');
    return encodeSession({ ...session, pds: pdsUrl() });
  };
  return { ...tokens, accessToken: moved(tokens.accessToken), refreshToken: moved(tokens.refreshToken) };
}

describe('a PDS name resolving to a non-public address', () => {
  it.each(REFUSED)(
    'publish: refused at connect time when it resolves to %s, nothing sent',
    async (_, addresses) => {
      zone[PDS_HOST] = addresses;
      lookup.mockClear();
      trapConnections = 0;
      const postsBefore = world.fake.control.posts().length;
      const network = guardedNetwork();
      const post = aPost('Never sent to a private address');
      const outcome = await network.connector.publish(publishRequest(world, post, tokensOnTheNamedPds()));
      expect(outcome).toMatchObject({
        kind: 'failed',
        failure: 'auth_revoked',
        code: 'PDS_ADDRESS_REFUSED',
        platformRawCode: 'pds_address_refused',
      });
      // What a customer reads names no address.
      expect(JSON.stringify(outcome)).not.toMatch(/10\.0\.0\.1|169\.254|127\.0\.0\.1/);
      expect(lookup).toHaveBeenCalledWith(PDS_HOST);
      expect(trapConnections).toBe(0);
      expect(world.fake.control.posts().length).toBe(postsBefore);

      const metrics = await network.connector.readAccountMetrics?.({
        account: anAccount(),
        credentials: { accessToken: tokensOnTheNamedPds().accessToken },
        signal: AbortSignal.timeout(5000),
      });
      expect(metrics).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
      await expect(
        network.oauth.readProfile(tokensOnTheNamedPds().accessToken, AbortSignal.timeout(5000)),
      ).rejects.toMatchObject({ name: 'GrantRefusedError', networkCode: 'pds_address_refused' });
      expect(trapConnections).toBe(0);
    },
  );

  it('the same name resolving to the (allowed) loopback trap is connected to: the refusal is the address check', async () => {
    zone[PDS_HOST] = [{ address: '127.0.0.1', family: 4 }];
    trapConnections = 0;
    const outcome = await guardedNetwork().connector.publish(
      publishRequest(world, aPost('Reaches the trap'), tokensOnTheNamedPds()),
    );
    expect(outcome.kind).not.toBe('published');
    expect(outcome).not.toMatchObject({ code: 'PDS_ADDRESS_REFUSED' });
    expect(trapConnections).toBeGreaterThan(0);
  });
});

describe('a DID document naming such a PDS at connect', () => {
  /** A PLC directory on loopback whose document for USER names the PDS at `pdsUrl()`. */
  let plc: ReturnType<typeof createHttpServer>;
  let plcUrl = '';
  beforeAll(async () => {
    plc = createHttpServer((req, res) => {
      if (decodeURIComponent(req.url ?? '') !== `/${USER.did}`) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: USER.did,
          alsoKnownAs: [`at://${USER.handle}`],
          service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pdsUrl() }],
        }),
      );
    });
    await new Promise<void>((resolve) => plc.listen(0, '127.0.0.1', resolve));
    plcUrl = `http://127.0.0.1:${(plc.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => plc.close(() => resolve()));
  });

  it.each(REFUSED)(
    'the grant is refused when the PDS resolves to %s, nothing sent to it',
    async (_, addresses) => {
      zone[PDS_HOST] = addresses;
      lookup.mockClear();
      trapConnections = 0;
      const error = await connect({ ...world, network: guardedNetwork(plcUrl) }, 'st_ssrf').catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(GrantRefusedError);
      expect((error as GrantRefusedError).networkCode).toBe('pds_address_refused');
      expect(lookup).toHaveBeenCalledWith(PDS_HOST);
      expect(trapConnections).toBe(0);
    },
  );
});
