import { afterEach, describe, expect, it } from 'vitest';
import { LINKEDIN_VERSION } from '../../../../shared/networks/linkedin/api.js';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  communityToken,
  type LinkedInWorld,
  MEMBER,
  memberToken,
  PAGE,
  pageRequest,
  patternBytes,
  startWorld,
  storedMedia,
} from './linkedin-world.js';

const MEMBER_URN = `urn:li:person:${MEMBER.sub}`;

function publishedId(outcome: PublishOutcome): string {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome.platformPostId;
}

describe('LinkedIn publishing against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it('publishes a text post as the member: public, main feed, published, with the version headers on every call', async () => {
    world = await startWorld();
    const token = memberToken(world);

    const outcome = await world.network.connector.publish(aRequest(world, token));

    const [post] = world.fake.control.posts();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: post?.id,
      platformPostUrl: `https://www.linkedin.com/feed/update/${post?.id}/`,
    });
    expect(post).toMatchObject({
      author: MEMBER_URN,
      commentary: 'Hello from the fake',
      publishedText: 'Hello from the fake',
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    });
    expect(post?.content).toBeUndefined();
    const rest = world.fake.control.requests().filter((r) => r.path.startsWith('/rest/'));
    expect(rest.map((r) => r.endpoint)).toEqual(['posts.create']);
    for (const request of rest) {
      expect(request.linkedInVersion).toBe(LINKEDIN_VERSION);
      expect(request.restliProtocolVersion).toBe('2.0.0');
    }
  });

  it('escapes every little-text reserved character, so LinkedIn publishes the text exactly as written', async () => {
    world = await startWorld();
    const text = 'Q3 (final) results: 50% up @team #growth [link] <b> {x|y} *bold* _it_ ~s~ back\\slash';

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post: aPost({ content: text }) }),
    );

    publishedId(outcome);
    const [post] = world.fake.control.posts();
    expect(post?.publishedText).toBe(text);
    expect(post?.commentary).toBe(
      'Q3 \\(final\\) results: 50% up \\@team \\#growth \\[link\\] \\<b\\> \\{x\\|y\\} \\*bold\\* \\_it\\_ \\~s\\~ back\\\\slash',
    );
  });

  it('uses the visibility of the post options', async () => {
    world = await startWorld();
    const post = aPost({ platformOptions: { linkedin: { visibility: 'CONNECTIONS' } } });

    publishedId(await world.network.connector.publish(aRequest(world, memberToken(world), { post })));

    expect(world.fake.control.posts()[0]?.visibility).toBe('CONNECTIONS');
  });

  it('publishes an image post: initializeUpload, the bytes streamed to the upload URL, the URN with its alt text', async () => {
    world = await startWorld();
    const image = storedMedia(world.bytes, 'image', patternBytes(5000), { alt: 'A chart of Q3' });
    const post = aPost({ postType: 'image', media: [image.ref] });

    publishedId(
      await world.network.connector.publish(
        aRequest(world, memberToken(world), { post, media: [image.delivered] }),
      ),
    );

    const [upload] = world.fake.control.uploads();
    expect(upload).toMatchObject({ kind: 'image', owner: MEMBER_URN, status: 'AVAILABLE' });
    expect(Buffer.compare(upload?.bytes ?? Buffer.alloc(0), Buffer.from(patternBytes(5000)))).toBe(0);
    expect(world.bytes.streams).toEqual([image.delivered.stored?.objectKey]);
    expect(world.fake.control.posts()[0]?.content).toEqual({
      media: { id: upload?.urn, altText: 'A chart of Q3' },
    });
  });

  it('publishes 2–20 images as one MultiImage post, in order, each with its alt text', async () => {
    world = await startWorld();
    const images = [1, 2, 3].map((n) =>
      storedMedia(world.bytes, 'image', patternBytes(800 + n, n), { alt: `Slide ${n}` }),
    );
    const post = aPost({ postType: 'carousel', media: images.map((i) => i.ref) });

    publishedId(
      await world.network.connector.publish(
        aRequest(world, memberToken(world), { post, media: images.map((i) => i.delivered) }),
      ),
    );

    const urns = world.fake.control.uploads().map((u) => u.urn);
    expect(urns).toHaveLength(3);
    expect(world.fake.control.posts()[0]?.content).toEqual({
      multiImage: { images: urns.map((id, i) => ({ id, altText: `Slide ${i + 1}` })) },
    });
  });

  it('uploads a video in the parts LinkedIn asks for, reading only each part, finalizes with every ETag, answers pending while it processes, and posts it when it is available', async () => {
    world = await startWorld({ videoPartBytes: 1000, processingChecks: { video: 2 } });
    const content = patternBytes(3500);
    const video = storedMedia(world.bytes, 'video', content);
    const post = aPost({ postType: 'video', media: [video.ref] });
    const token = memberToken(world);

    const first = await world.network.connector.publish(
      aRequest(world, token, { post, media: [video.delivered] }),
    );

    expect(first).toMatchObject({ kind: 'pending', checkAfterSeconds: 30, stage: 'media_processing' });
    const [upload] = world.fake.control.uploads();
    expect(upload?.status).toBe('PROCESSING');
    expect(upload?.parts?.map((p) => [p.firstByte, p.lastByte])).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
      [3000, 3499],
    ]);
    expect(Buffer.compare(upload?.bytes ?? Buffer.alloc(0), Buffer.from(content))).toBe(0);
    expect(world.bytes.ranges.map((r) => r.end - r.start)).toEqual([1000, 1000, 1000, 500]);
    expect(world.bytes.streams).toEqual([]);
    expect(world.fake.control.posts()).toHaveLength(0);

    // The worker comes back later with the progress: still processing, then available.
    const progress = first.kind === 'pending' ? first.progress : undefined;
    const second = await world.network.connector.publish(
      aRequest(world, token, { post, media: [video.delivered], progress, attempt: 2 }),
    );
    expect(second.kind).toBe('pending');
    const third = await world.network.connector.publish(
      aRequest(world, token, {
        post,
        media: [video.delivered],
        progress: second.kind === 'pending' ? second.progress : undefined,
        attempt: 3,
      }),
    );

    publishedId(third);
    expect(world.fake.control.uploads()).toHaveLength(1);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'videos.upload')).toHaveLength(4);
    expect(world.fake.control.posts()[0]?.content).toEqual({ media: { id: upload?.urn } });
  });

  it('publishes a document: uploaded once, pending while LinkedIn processes it, then posted with the file name as its title', async () => {
    world = await startWorld();
    const doc = storedMedia(world.bytes, 'document', patternBytes(4000), { filename: 'Q3 report.pdf' });
    const post = aPost({ postType: 'document', media: [doc.ref] });
    const token = memberToken(world);

    const first = await world.network.connector.publish(
      aRequest(world, token, { post, media: [doc.delivered] }),
    );
    expect(first).toMatchObject({ kind: 'pending', checkAfterSeconds: 10 });

    const second = await world.network.connector.publish(
      aRequest(world, token, {
        post,
        media: [doc.delivered],
        progress: first.kind === 'pending' ? first.progress : undefined,
        attempt: 2,
      }),
    );

    publishedId(second);
    const [upload] = world.fake.control.uploads();
    expect(world.fake.control.uploads()).toHaveLength(1);
    expect(world.fake.control.posts()[0]?.content).toEqual({
      media: { id: upload?.urn, title: 'Q3 report.pdf' },
    });
  });

  it('posts as a Page the member administers: roles checked on organizationAcls, media owned by the Page', async () => {
    world = await startWorld({
      acls: [{ member: MEMBER.sub, organization: PAGE, role: 'CONTENT_ADMINISTRATOR', state: 'APPROVED' }],
    });
    const image = storedMedia(world.bytes, 'image', patternBytes(600));
    const post = aPost({
      postType: 'image',
      media: [image.ref],
      platformOptions: { linkedin: { author: PAGE } },
    });

    publishedId(
      await world.network.connector.publish(
        pageRequest(world, communityToken(world), { post, media: [image.delivered] }),
      ),
    );

    expect(world.fake.control.posts()[0]?.author).toBe(PAGE);
    expect(world.fake.control.uploads()[0]?.owner).toBe(PAGE);
    expect(world.fake.control.requests().some((r) => r.endpoint === 'organizationAcls')).toBe(true);
  });

  it.each([
    ['no role at all', []],
    [
      'a role that may not post',
      [{ member: MEMBER.sub, organization: PAGE, role: 'ANALYST', state: 'APPROVED' as const }],
    ],
    [
      'a posting role not yet approved',
      [{ member: MEMBER.sub, organization: PAGE, role: 'ADMINISTRATOR', state: 'REQUESTED' as const }],
    ],
  ])(
    'refuses a Page the member has %s on, before uploading anything (AUTHOR_NOT_ALLOWED)',
    async (_, acls) => {
      world = await startWorld({ acls });
      const image = storedMedia(world.bytes, 'image', patternBytes(600));
      const post = aPost({
        postType: 'image',
        media: [image.ref],
        platformOptions: { linkedin: { author: PAGE } },
      });

      const outcome = await world.network.connector.publish(
        pageRequest(world, communityToken(world), { post, media: [image.delivered] }),
      );

      expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'AUTHOR_NOT_ALLOWED' });
      expect(world.fake.control.uploads()).toHaveLength(0);
      expect(world.fake.control.posts()).toHaveLength(0);
    },
  );

  it('refuses a Page when the grant cannot read Page roles (a Community Management grant without rw_organization_admin)', async () => {
    world = await startWorld({
      acls: [{ member: MEMBER.sub, organization: PAGE, role: 'ADMINISTRATOR', state: 'APPROVED' }],
    });
    const token = world.fake.control.issueToken(
      MEMBER.sub,
      ['r_basicprofile', 'w_member_social', 'w_organization_social'],
      world.fake.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );
    const post = aPost({ platformOptions: { linkedin: { author: PAGE } } });

    const outcome = await world.network.connector.publish(pageRequest(world, token, { post }));

    expect(outcome).toMatchObject({ kind: 'failed', code: 'AUTHOR_NOT_ALLOWED', platformRawCode: '100' });
    expect(world.fake.control.posts()).toHaveLength(0);
  });

  it('finds the member id from userinfo when the account does not carry it', async () => {
    world = await startWorld();
    const request = aRequest(world, memberToken(world));
    const { networkUserId: _, ...account } = request.account;

    publishedId(await world.network.connector.publish({ ...request, account }));

    expect(world.fake.control.posts()[0]?.author).toBe(MEMBER_URN);
  });

  it('finds the member id from /v2/me for a Community Management account that does not carry it (no openid there)', async () => {
    world = await startWorld();
    const request = pageRequest(world, communityToken(world));
    const { networkUserId: _, ...account } = request.account;

    publishedId(await world.network.connector.publish({ ...request, account }));

    expect(world.fake.control.posts()[0]?.author).toBe(MEMBER_URN);
    expect(world.fake.control.requests().map((r) => r.endpoint)).toEqual(['me', 'posts.create']);
  });
});
