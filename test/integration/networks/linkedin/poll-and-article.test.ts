import { afterEach, describe, expect, it } from 'vitest';
import { LINKEDIN_VERSION } from '../../../../shared/networks/linkedin/api.js';
import type { LookupRequest, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
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
  StubLinkPreview,
  startWorld,
  storedMedia,
} from './linkedin-world.js';

const MEMBER_URN = `urn:li:person:${MEMBER.sub}`;
const POLL = {
  question: 'Which format next?',
  options: ['Guide', 'Checklist', 'Video'],
  duration: '3d' as const,
};
const ARTICLE_URL = 'https://blog.example.com/posts/launch?ref=li';

function publishedId(outcome: PublishOutcome): string {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome.platformPostId;
}

/** A raw Posts API call with the version headers, for what the connector never sends. */
async function rawCreate(world: LinkedInWorld, token: string, body: unknown): Promise<Response> {
  return fetch(`${world.fake.apiUrl}/rest/posts`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'LinkedIn-Version': LINKEDIN_VERSION,
      'X-Restli-Protocol-Version': '2.0.0',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

const base = (author: string) => ({
  author,
  commentary: 'Vote below',
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
});

describe('LinkedIn polls against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it('publishes platformOptions.linkedin.poll as content.poll: one vote each, voters visible to the author, the duration by name', async () => {
    world = await startWorld();
    const post = aPost({ content: 'Help us choose (2 min)', platformOptions: { linkedin: { poll: POLL } } });

    const outcome = await world.network.connector.publish(aRequest(world, memberToken(world), { post }));

    const [stored] = world.fake.control.posts();
    expect(publishedId(outcome)).toBe(stored?.id);
    expect(stored?.publishedText).toBe('Help us choose (2 min)');
    expect(stored?.content).toEqual({
      poll: {
        question: 'Which format next?',
        options: [{ text: 'Guide' }, { text: 'Checklist' }, { text: 'Video' }],
        settings: { duration: 'THREE_DAYS', voteSelectionType: 'SINGLE_VOTE', isVoterVisibleToAuthor: true },
      },
    });
  });

  it('refuses a poll beside media or a link without calling LinkedIn (a post stored before the rules)', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const image = storedMedia(world.bytes, 'image', patternBytes(300, 1));
    const withMedia = aPost({
      postType: 'image',
      media: [image.ref],
      platformOptions: { linkedin: { poll: POLL } },
    });
    const withLink = aPost({ link: { url: ARTICLE_URL }, platformOptions: { linkedin: { poll: POLL } } });

    const outcomes = [
      await world.network.connector.publish(
        aRequest(world, token, { post: withMedia, media: [image.delivered] }),
      ),
      await world.network.connector.publish(aRequest(world, token, { post: withLink })),
    ];

    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    }
    expect(world.fake.control.requests().filter((r) => r.path.startsWith('/rest/'))).toEqual([]);
  });

  it('finds a poll without text by its question after the answer never came: no second post', async () => {
    world = await startWorld();
    const post = aPost({ content: '', platformOptions: { linkedin: { author: PAGE, poll: POLL } } });
    const request = pageRequest(world, communityToken(world), { post, signal: AbortSignal.timeout(300) });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: 2_000 });

    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    // Another text-less poll of the Page, asking something else, is not ours.
    await world.network.connector.publish(
      pageRequest(world, communityToken(world), {
        post: aPost({
          postId: 'pst_other',
          content: '',
          platformOptions: { linkedin: { author: PAGE, poll: { ...POLL, question: 'Another question?' } } },
        }),
      }),
    );

    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));

    const [ours] = world.fake.control.posts();
    expect(ours?.commentary).toBe('');
    expect(found).toMatchObject({ kind: 'found', platformPostId: ours?.id });
    expect(world.fake.control.posts()).toHaveLength(2);
  });

  it('the fake refuses what LinkedIn refuses of a poll: 5 options, a 31-character option, hidden voters, multiple votes, a second content', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const poll = {
      question: 'Which?',
      options: [{ text: 'A' }, { text: 'B' }],
      settings: { duration: 'ONE_DAY', voteSelectionType: 'SINGLE_VOTE', isVoterVisibleToAuthor: true },
    };
    const refused = [
      { poll: { ...poll, options: ['A', 'B', 'C', 'D', 'E'].map((text) => ({ text })) } },
      { poll: { ...poll, options: [{ text: 'A' }, { text: 'b'.repeat(31) }] } },
      { poll: { ...poll, question: 'q'.repeat(141) } },
      { poll: { ...poll, settings: { ...poll.settings, isVoterVisibleToAuthor: false } } },
      { poll: { ...poll, settings: { ...poll.settings, voteSelectionType: 'MULTIPLE_VOTE' } } },
      { poll: { ...poll, settings: { ...poll.settings, duration: 'TWO_DAYS' } } },
      { poll, article: { source: ARTICLE_URL, title: 'T' } },
    ];
    for (const content of refused) {
      const response = await rawCreate(world, token, { ...base(MEMBER_URN), content });
      expect(response.status, JSON.stringify(content)).toBe(422);
    }
    expect((await rawCreate(world, token, { ...base(MEMBER_URN), content: { poll } })).status).toBe(201);
  });
});

describe('LinkedIn article shares (the post’s link) against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it('sends the link’s own title, description and thumbnail (uploaded through the Images API, owned by the author) and reads no page', async () => {
    world = await startWorld();
    const thumbnail = storedMedia(world.bytes, 'image', patternBytes(400, 7), { alt: 'The launch banner' });
    const reader = new StubLinkPreview({ title: 'Page title', description: 'Page description' });
    const post = aPost({
      content: 'Our launch write-up',
      link: { url: ARTICLE_URL, title: 'We shipped', description: 'What is new', thumbnail: thumbnail.ref },
    });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, linkThumbnail: thumbnail.delivered, linkPreview: reader }),
    );

    const [stored] = world.fake.control.posts();
    expect(publishedId(outcome)).toBe(stored?.id);
    const image = world.fake.control.uploads().find((upload) => upload.kind === 'image');
    expect(image).toMatchObject({ owner: MEMBER_URN, status: 'AVAILABLE' });
    expect(image?.bytes).toEqual(Buffer.from(patternBytes(400, 7)));
    expect(stored?.content).toEqual({
      article: {
        source: ARTICLE_URL,
        title: 'We shipped',
        description: 'What is new',
        thumbnail: image?.urn,
        thumbnailAltText: 'The launch banner',
      },
    });
    expect(reader.pagesRead).toEqual([]);
    expect(outcome).not.toHaveProperty('warnings');
  });

  it('builds the card from the page’s Open Graph tags and og:image when the link gives only its URL (a Page post: the image is the Page’s)', async () => {
    world = await startWorld();
    const png = patternBytes(600, 3);
    const reader = new StubLinkPreview(
      { title: 'Launch notes', description: 'Everything in 2.0', imageUrl: 'https://cdn.example.com/og.png' },
      { bytes: png, contentType: 'image/png' },
    );
    const post = aPost({ link: { url: ARTICLE_URL }, platformOptions: { linkedin: { author: PAGE } } });

    const outcome = await world.network.connector.publish(
      pageRequest(world, communityToken(world), { post, linkPreview: reader }),
    );

    expect(outcome.kind).toBe('published');
    expect(reader.pagesRead).toEqual([ARTICLE_URL]);
    expect(reader.imagesRead).toEqual([{ url: 'https://cdn.example.com/og.png', maxBytes: 5 * 1024 * 1024 }]);
    const [stored] = world.fake.control.posts();
    const image = world.fake.control.uploads().find((upload) => upload.kind === 'image');
    expect(image).toMatchObject({ owner: PAGE });
    expect(image?.bytes).toEqual(Buffer.from(png));
    expect(stored?.author).toBe(PAGE);
    expect(stored?.content).toEqual({
      article: {
        source: ARTICLE_URL,
        title: 'Launch notes',
        description: 'Everything in 2.0',
        thumbnail: image?.urn,
      },
    });
  });

  it('publishes with the URL’s host as the title when the page cannot be read, and no image', async () => {
    world = await startWorld();
    const post = aPost({ link: { url: ARTICLE_URL } });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, linkPreview: new StubLinkPreview(undefined) }),
    );

    expect(outcome).toMatchObject({ kind: 'published' });
    expect(outcome).not.toHaveProperty('warnings');
    expect(world.fake.control.posts()[0]?.content).toEqual({
      article: { source: ARTICLE_URL, title: 'blog.example.com' },
    });
  });

  it('drops a thumbnail LinkedIn would not take and says so: the post is still published, once', async () => {
    world = await startWorld();
    const reader = new StubLinkPreview(
      { title: 'Launch notes', imageUrl: 'https://cdn.example.com/og.png' },
      { bytes: patternBytes(200, 1), contentType: 'image/png' },
    );
    world.fake.control.failNext('images.initialize', {
      kind: 'reply',
      reply: { status: 500, json: { status: 500, message: 'Internal error' } },
    });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), {
        post: aPost({ link: { url: ARTICLE_URL } }),
        linkPreview: reader,
      }),
    );

    expect(outcome).toMatchObject({
      kind: 'published',
      warnings: [{ code: 'LINK_THUMBNAIL_DROPPED', message: expect.any(String) }],
    });
    expect(world.fake.control.posts()).toHaveLength(1);
    expect(world.fake.control.posts()[0]?.content).toEqual({
      article: { source: ARTICLE_URL, title: 'Launch notes' },
    });
  });

  it('drops an og:image that cannot be read, with the same warning', async () => {
    world = await startWorld();
    const reader = new StubLinkPreview({ imageUrl: 'https://cdn.example.com/huge.png' }, undefined);

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), {
        post: aPost({ link: { url: ARTICLE_URL } }),
        linkPreview: reader,
      }),
    );

    expect(outcome).toMatchObject({ kind: 'published', warnings: [{ code: 'LINK_THUMBNAIL_DROPPED' }] });
    expect(world.fake.control.uploads()).toEqual([]);
  });

  it('keeps the uploaded thumbnail in progress: a retry after a refused post does not upload it again', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const reader = new StubLinkPreview(
      { title: 'Launch notes', imageUrl: 'https://cdn.example.com/og.png' },
      { bytes: patternBytes(200, 1), contentType: 'image/png' },
    );
    const post = aPost({ link: { url: ARTICLE_URL } });
    world.fake.control.failNext('posts.create', {
      kind: 'reply',
      reply: { status: 503, json: { status: 503, message: 'Service unavailable' } },
    });

    const first = await world.network.connector.publish(
      aRequest(world, token, { post, linkPreview: reader }),
    );
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient' });
    const retry = await world.network.connector.publish(
      aRequest(world, token, {
        post,
        linkPreview: reader,
        attempt: 2,
        ...('progress' in first && first.progress && { progress: first.progress }),
      }),
    );

    expect(retry.kind).toBe('published');
    const images = world.fake.control.uploads().filter((upload) => upload.kind === 'image');
    expect(images).toHaveLength(1);
    expect(reader.imagesRead).toHaveLength(1);
    expect(world.fake.control.posts()[0]?.content?.article?.thumbnail).toBe(images[0]?.urn);
  });

  it('refuses a link beside media without calling LinkedIn (a post stored before the rules)', async () => {
    world = await startWorld();
    const image = storedMedia(world.bytes, 'image', patternBytes(300, 1));
    const post = aPost({ postType: 'image', media: [image.ref], link: { url: ARTICLE_URL } });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, media: [image.delivered] }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', code: 'PLATFORM_REJECTED' });
    expect(world.fake.control.posts()).toEqual([]);
  });

  it('the fake refuses an article without a title, with another author’s thumbnail, or beside media', async () => {
    world = await startWorld();
    const token = memberToken(world);
    // A thumbnail the Page owns, in a member's post.
    const pageToken = communityToken(world);
    const init = await fetch(`${world.fake.apiUrl}/rest/images?action=initializeUpload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${pageToken}`,
        'LinkedIn-Version': LINKEDIN_VERSION,
        'X-Restli-Protocol-Version': '2.0.0',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ initializeUploadRequest: { owner: PAGE } }),
    });
    const pageImage = ((await init.json()) as { value: { image: string } }).value.image;

    for (const content of [
      { article: { source: ARTICLE_URL } },
      { article: { source: 'not a url', title: 'T' } },
      { article: { source: ARTICLE_URL, title: 'T', thumbnail: pageImage } },
      { article: { source: ARTICLE_URL, title: 'T' }, media: { id: pageImage } },
    ]) {
      const response = await rawCreate(world, token, { ...base(MEMBER_URN), content });
      expect(response.status, JSON.stringify(content)).toBe(422);
    }
  });

  it('finds an article share by its URL after the answer never came', async () => {
    world = await startWorld();
    const post = aPost({
      content: 'Read this',
      link: { url: ARTICLE_URL },
      platformOptions: { linkedin: { author: PAGE } },
    });
    const request = pageRequest(world, communityToken(world), { post, signal: AbortSignal.timeout(300) });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: 2_000 });

    const outcome = await world.network.connector.publish(request);
    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));

    expect(found).toMatchObject({ kind: 'found', platformPostId: world.fake.control.posts()[0]?.id });
  });
});

function lookupFor(request: PublishRequest, outcome: PublishOutcome): LookupRequest {
  return {
    account: request.account,
    ...(request.credentials && { credentials: request.credentials }),
    post: request.post,
    clientReference: request.clientReference,
    ...('progress' in outcome && outcome.progress && { progress: outcome.progress }),
    signal: AbortSignal.timeout(5_000),
  };
}
