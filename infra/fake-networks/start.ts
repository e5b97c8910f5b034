import { startInstagramFake } from './instagram/index.js';
import { startLinkedInFake } from './linkedin/index.js';
import { startTikTokFake } from './tiktok/index.js';
import { startXFake } from './x/index.js';
import { startYouTubeFake } from './youtube/index.js';

/** The fakes of every network that has a connector, running on loopback. */
export interface FakeNetworks {
  /**
   * What points a host at them: the endpoint variables (X_API_URL…) and the fake apps'
   * credentials (<APP>_CLIENT_ID / _SECRET), as `npm run fake-networks` prints them.
   */
  env: Readonly<Record<string, string>>;
  /** The networks they stand in for, for a banner. */
  names: readonly string[];
  stop(): Promise<void>;
}

/**
 * Starts the fakes on free loopback ports. Their apps accept any http(s) callback, so a local
 * host on any port can connect accounts through them.
 */
export async function startFakeNetworks(): Promise<FakeNetworks> {
  const x = await startXFake();
  // Its default apps: a member app (LINKEDIN_CLIENT_ID) and a Community Management app.
  const linkedIn = await startLinkedInFake({ issueRefreshTokens: true });
  const linkedInCommunity = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');
  const tiktok = await startTikTokFake();
  const youTube = await startYouTubeFake();
  const instagram = await startInstagramFake();
  return {
    env: {
      X_API_URL: x.apiUrl,
      X_AUTHORIZE_URL: x.authorizeUrl,
      X_CLIENT_ID: x.clientId,
      X_CLIENT_SECRET: x.clientSecret,
      LINKEDIN_API_URL: linkedIn.apiUrl,
      LINKEDIN_OAUTH_URL: linkedIn.oauthUrl,
      LINKEDIN_CLIENT_ID: linkedIn.clientId,
      LINKEDIN_CLIENT_SECRET: linkedIn.clientSecret,
      ...(linkedInCommunity && {
        LINKEDIN_COMMUNITY_CLIENT_ID: linkedInCommunity.clientId,
        LINKEDIN_COMMUNITY_CLIENT_SECRET: linkedInCommunity.clientSecret,
      }),
      TIKTOK_API_URL: tiktok.apiUrl,
      TIKTOK_AUTHORIZE_URL: tiktok.authorizeUrl,
      TIKTOK_CLIENT_ID: tiktok.clientId,
      TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
      YOUTUBE_API_URL: youTube.apiUrl,
      YOUTUBE_UPLOAD_URL: youTube.uploadUrl,
      GOOGLE_AUTHORIZE_URL: youTube.authorizeUrl,
      GOOGLE_TOKEN_URL: youTube.tokenUrl,
      GOOGLE_CLIENT_ID: youTube.clientId,
      GOOGLE_CLIENT_SECRET: youTube.clientSecret,
      INSTAGRAM_GRAPH_URL: instagram.graphUrl,
      INSTAGRAM_OAUTH_URL: instagram.oauthUrl,
      INSTAGRAM_AUTHORIZE_URL: instagram.authorizeUrl,
      INSTAGRAM_CLIENT_ID: instagram.clientId,
      INSTAGRAM_CLIENT_SECRET: instagram.clientSecret,
    },
    names: ['X', 'LinkedIn', 'Instagram', 'TikTok', 'YouTube'],
    async stop() {
      await Promise.all([x.stop(), linkedIn.stop(), instagram.stop(), tiktok.stop(), youTube.stop()]);
    },
  };
}
