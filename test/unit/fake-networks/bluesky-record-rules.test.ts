import { describe, expect, it } from 'vitest';
import { postRecordProblem, referencedBlobs } from '../../../infra/fake-networks/bluesky/record-rules.js';
import { FakeBlueskyStore } from '../../../infra/fake-networks/bluesky/store.js';

const DID = 'did:plc:testuser';
const rules = {
  maxImageBytes: 1_000_000,
  maxBlobBytes: 52_428_800,
  blobLifetimeMs: 60_000,
  now: () => 1_000,
};

function storeWith(blobs: { cid: string; mimeType: string; size: number }[]): FakeBlueskyStore {
  const store = new FakeBlueskyStore();
  for (const blob of blobs) store.blobs.set(blob.cid, { ...blob, did: DID, uploadedAt: 1_000 });
  return store;
}
const blobRef = (cid: string, mimeType: string, size: number) => ({
  $type: 'blob',
  ref: { $link: cid },
  mimeType,
  size,
});
const cardPost = (thumb?: unknown) => ({
  $type: 'app.bsky.feed.post',
  text: 'A card',
  createdAt: '2026-11-27T10:00:00.000Z',
  embed: {
    $type: 'app.bsky.embed.external',
    external: {
      uri: 'https://example.com',
      title: 'T',
      description: '',
      ...(thumb !== undefined && { thumb }),
    },
  },
});

/** The fake PDS's lexicon check of an external card's thumbnail (app.bsky.embed.external#external.thumb). */
describe('fake Bluesky: a link card’s thumbnail', () => {
  it('takes an image blob of at most 1,000,000 bytes, and counts it as referenced', () => {
    const store = storeWith([{ cid: 'bafkreiimage', mimeType: 'image/png', size: 1_000_000 }]);
    const record = cardPost(blobRef('bafkreiimage', 'image/png', 1_000_000));
    expect(postRecordProblem(record, DID, store, rules)).toBeUndefined();
    expect(referencedBlobs(record)).toEqual(['bafkreiimage']);
  });

  it('refuses a video blob, a blob over 1,000,000 bytes, and a blob the PDS does not have', () => {
    const store = storeWith([
      { cid: 'bafkreivideo', mimeType: 'video/mp4', size: 3000 },
      { cid: 'bafkreibig', mimeType: 'image/jpeg', size: 1_000_001 },
    ]);
    expect(
      postRecordProblem(cardPost(blobRef('bafkreivideo', 'video/mp4', 3000)), DID, store, rules),
    ).toMatch(/thumb blob must be image/);
    expect(
      postRecordProblem(cardPost(blobRef('bafkreibig', 'image/jpeg', 1_000_001)), DID, store, rules),
    ).toMatch(/thumb blob is too big/);
    expect(postRecordProblem(cardPost(blobRef('bafkreigone', 'image/png', 10)), DID, store, rules)).toMatch(
      /thumb Could not find blob/,
    );
  });

  it('takes a card without a thumbnail', () => {
    expect(postRecordProblem(cardPost(), DID, storeWith([]), rules)).toBeUndefined();
  });
});
