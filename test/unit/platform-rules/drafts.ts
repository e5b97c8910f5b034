import type {
  MediaKind,
  MediaKindLookup,
  MediaRef,
  PostDraft,
  RuleViolation,
} from '../../../shared/domain/posts.js';

/** A publishable-looking draft; tests override what they are about. */
export function aDraft(overrides: Partial<PostDraft> = {}): PostDraft {
  return { platform: 'twitter', postType: 'text', content: 'Hello', media: [], ...overrides };
}

/** URL media of the given kind: the lookup below reads the kind from `type`. */
export function media(kind: MediaKind, count = 1): MediaRef[] {
  return Array.from({ length: count }, (_, i) => ({
    url: `https://cdn.example.com/${kind}-${i}`,
    type: kind,
  }));
}

export const images = (count = 1): MediaRef[] => media('image', count);
export const videos = (count = 1): MediaRef[] => media('video', count);
export const documents = (count = 1): MediaRef[] => media('document', count);

/** Pre-uploaded media the caller could not resolve (the lookup answers undefined). */
export const unknownMedia = (): MediaRef => ({ id: 'med_UNKNOWN' });

/** The lookup the caller builds: `type` for URL media, nothing known for ids in these tests. */
export const kindFromType: MediaKindLookup = (ref) => ref.type;

/** Just the codes, in order: most assertions are about which rules fired. */
export function codes(violations: readonly RuleViolation[]): string[] {
  return violations.map((v) => v.code);
}
