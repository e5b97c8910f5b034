import { describe, expect, it } from 'vitest';
import type { YouTubeUploadMetadata } from '../../../shared/networks/youtube/options.js';
import { visibilityWarnings } from '../../../shared/networks/youtube/visibility.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const metadata = (privacyStatus: string, publishAt?: string): YouTubeUploadMetadata => ({
  resource: {
    snippet: { title: 'Launch', description: '' },
    status: { privacyStatus, selfDeclaredMadeForKids: false, ...(publishAt && { publishAt }) },
  },
});
const codes = (warnings: { code: string }[]) => warnings.map((warning) => warning.code);

describe('what a processed YouTube video says of its visibility', () => {
  it('a scheduled video still private before publishAt: private until then, naming the time', () => {
    const warnings = visibilityWarnings(metadata('private', '2026-11-28T09:00:00.000Z'), 'private', NOW);
    expect(codes(warnings)).toEqual(['PRIVATE_UNTIL_PUBLISH_AT']);
    expect(warnings[0]?.message).toContain('2026-11-28T09:00:00.000Z');
  });

  it('a scheduled video public once publishAt has passed: nothing to say (not a change of visibility)', () => {
    expect(visibilityWarnings(metadata('private', '2026-11-27T11:00:00.000Z'), 'public', NOW)).toEqual([]);
  });

  it('a public video YouTube made private (an unaudited project): the visibility changed', () => {
    expect(codes(visibilityWarnings(metadata('public'), 'private', NOW))).toEqual([
      'PLATFORM_VISIBILITY_CHANGED',
    ]);
    expect(visibilityWarnings(metadata('public'), 'public', NOW)).toEqual([]);
  });
});
