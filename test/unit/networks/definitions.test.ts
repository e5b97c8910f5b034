import { describe, expect, it } from 'vitest';
import { PLATFORM_ALIASES, PLATFORMS } from '../../../shared/domain/platforms.js';
import { defineNetwork } from '../../../shared/networks/definition.js';
import { assertDistinctNames, NETWORK_NAMES } from '../../../shared/networks/definitions.js';
import { xDefinition } from '../../../shared/networks/x/definition.js';
import {
  APP_OF_PLATFORM,
  envAppCredentials,
  loadNetworkEndpoints,
  NETWORK_APPS,
  NETWORK_ENDPOINT_DEFAULTS,
} from '../../../shared/runtime/network-config.js';

describe('the network definitions registry', () => {
  it('lists the platforms in the order the API does, with their names and the x alias', () => {
    expect(PLATFORMS).toEqual([
      'twitter',
      'linkedin',
      'instagram',
      'tiktok',
      'youtube',
      'bluesky',
      'facebook',
      'threads',
    ]);
    expect(NETWORK_NAMES).toEqual({
      twitter: 'X',
      linkedin: 'LinkedIn',
      instagram: 'Instagram',
      tiktok: 'TikTok',
      youtube: 'YouTube',
      bluesky: 'Bluesky',
      facebook: 'Facebook',
      threads: 'Threads',
    });
    expect(PLATFORM_ALIASES).toEqual({ x: 'twitter' });
  });

  it("collects each network's apps, the default first, and its endpoints with the real hosts", () => {
    expect(NETWORK_APPS).toEqual([
      'X',
      'LINKEDIN',
      'LINKEDIN_COMMUNITY',
      'INSTAGRAM',
      'TIKTOK',
      'GOOGLE',
      'BLUESKY',
      'FACEBOOK',
      'THREADS',
    ]);
    expect(APP_OF_PLATFORM).toEqual({
      twitter: 'X',
      linkedin: 'LINKEDIN',
      instagram: 'INSTAGRAM',
      tiktok: 'TIKTOK',
      youtube: 'GOOGLE',
      bluesky: 'BLUESKY',
      facebook: 'FACEBOOK',
      threads: 'THREADS',
    });
    expect(NETWORK_ENDPOINT_DEFAULTS).toEqual({
      X_API_URL: 'https://api.x.com',
      X_AUTHORIZE_URL: 'https://x.com/i/oauth2/authorize',
      LINKEDIN_API_URL: 'https://api.linkedin.com',
      LINKEDIN_OAUTH_URL: 'https://www.linkedin.com/oauth/v2',
      INSTAGRAM_GRAPH_URL: 'https://graph.instagram.com',
      INSTAGRAM_OAUTH_URL: 'https://api.instagram.com/oauth',
      INSTAGRAM_AUTHORIZE_URL: 'https://www.instagram.com/oauth/authorize',
      TIKTOK_API_URL: 'https://open.tiktokapis.com',
      TIKTOK_AUTHORIZE_URL: 'https://www.tiktok.com/v2/auth/authorize/',
      YOUTUBE_API_URL: 'https://www.googleapis.com/youtube/v3',
      YOUTUBE_UPLOAD_URL: 'https://www.googleapis.com/upload/youtube/v3',
      YOUTUBE_ANALYTICS_API_URL: 'https://youtubeanalytics.googleapis.com/v2',
      GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
      BLUESKY_ENTRYWAY_URL: 'https://bsky.social',
      BLUESKY_PLC_URL: 'https://plc.directory',
      BLUESKY_VIDEO_URL: 'https://video.bsky.app',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com',
      FACEBOOK_AUTHORIZE_URL: 'https://www.facebook.com/v24.0/dialog/oauth',
      FACEBOOK_GRAPH_VIDEO_URL: 'https://graph-video.facebook.com',
      FACEBOOK_RUPLOAD_URL: 'https://rupload.facebook.com',
      THREADS_GRAPH_URL: 'https://graph.threads.net',
      THREADS_AUTHORIZE_URL: 'https://threads.net/oauth/authorize',
    });
  });

  it("reads a definition's endpoint and app variables from the environment", async () => {
    const endpoints = loadNetworkEndpoints({ TIKTOK_API_URL: 'http://127.0.0.1:9/tiktok/' });
    const credentials = envAppCredentials({
      LINKEDIN_COMMUNITY_CLIENT_ID: 'id',
      LINKEDIN_COMMUNITY_CLIENT_SECRET: 's',
    });

    expect(endpoints.TIKTOK_API_URL).toBe('http://127.0.0.1:9/tiktok');
    expect(endpoints.X_API_URL).toBe('https://api.x.com');
    await expect(credentials.credentialsFor('LINKEDIN_COMMUNITY')).resolves.toEqual({
      clientId: 'id',
      clientSecret: 's',
    });
  });

  it('refuses two networks that declare the same platform, app or endpoint name', () => {
    const copy = (changes: Partial<Parameters<typeof defineNetwork>[0]>) =>
      defineNetwork({
        ...xDefinition,
        platform: 'other',
        aliases: [],
        apps: ['OTHER'],
        endpoints: {},
        ...changes,
      });

    expect(() => assertDistinctNames([xDefinition, copy({})])).not.toThrow();
    expect(() => assertDistinctNames([xDefinition, copy({ aliases: ['x'] })])).toThrow(
      'Two networks declare the platform or alias x.',
    );
    expect(() => assertDistinctNames([xDefinition, copy({ apps: ['X'] })])).toThrow(
      'Two networks declare the app X.',
    );
    expect(() =>
      assertDistinctNames([xDefinition, copy({ endpoints: { X_API_URL: 'http://127.0.0.1:9' } })]),
    ).toThrow('Two networks declare the endpoint X_API_URL.');
  });
});
