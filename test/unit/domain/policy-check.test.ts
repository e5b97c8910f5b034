import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyFacet, PostingWindow, WorkspacePolicies } from '../../../shared/domain/policies.js';
import {
  checkPolicies,
  isInsideWindow,
  POLICY_FACET_ORDER,
  type PolicyContext,
} from '../../../shared/domain/policy-check.js';
import { workspacePoliciesSchema } from '../../../shared/domain/policy-schema.js';
import type { MediaKind, MediaKindLookup, MediaRef, PostDraft } from '../../../shared/domain/posts.js';

/** Stored media by id, as the media store would answer; URL media carry their own `type`. */
const STORED_KINDS: Record<string, MediaKind> = {
  med_photo: 'image',
  med_clip: 'video',
  med_pdf: 'document',
};
const mediaKind: MediaKindLookup = (ref) => ref.type ?? (ref.id ? STORED_KINDS[ref.id] : undefined);

/** Wednesday 2026-03-04, 12:00 UTC. */
const NOW = Date.parse('2026-03-04T12:00:00Z');
const ctx: PolicyContext = { now: NOW, mediaKind };

function draft(overrides: Partial<PostDraft> = {}): PostDraft {
  return { platform: 'linkedin', postType: 'text', content: 'Hello world', media: [], ...overrides };
}

const image = (alt?: string): MediaRef => ({
  url: 'https://example.com/a.jpg',
  type: 'image',
  ...(alt !== undefined && { alt }),
});
const video: MediaRef = { url: 'https://example.com/a.mp4', type: 'video' };

function check(post: PostDraft, policies: WorkspacePolicies | undefined, now = NOW) {
  return checkPolicies(post, policies, { now, mediaKind });
}

describe('checkPolicies without policies', () => {
  it.each([
    ['no policies', undefined],
    ['empty policies', {}],
    ['only requireApproval (it routes, it does not refuse)', { requireApproval: true }],
    ['empty lists', { blockedTerms: [], blackoutDates: [] }],
    ['requireAltText false', { requireAltText: false }],
  ])('finds nothing with %s', (_name, policies) => {
    // Act
    const violation = check(draft({ media: [image()] }), policies);

    // Assess
    expect(violation).toBeUndefined();
  });
});

describe('platform facet', () => {
  it('passes a platform in the list', () => {
    expect(check(draft({ platform: 'instagram' }), { allowedPlatforms: ['linkedin', 'instagram'] })).toBe(
      undefined,
    );
  });

  it('refuses a platform outside the list and names the allowed ones', () => {
    // Act
    const violation = check(draft({ platform: 'twitter' }), { allowedPlatforms: ['linkedin', 'instagram'] });

    // Assess
    expect(violation).toEqual({
      facet: 'platform',
      reason: 'This workspace publishes only to linkedin, instagram.',
    });
  });
});

describe('content facet: blocked terms', () => {
  const blocked = (content: PostDraft['content'], terms: string[], media: MediaRef[] = []) =>
    check(draft({ content, media }), { blockedTerms: terms });

  it('ignores case and names the term', () => {
    expect(blocked('Buy CRYPTO today', ['crypto'])).toEqual({
      facet: 'content',
      reason: 'The post text contains the blocked term "crypto".',
    });
  });

  it.each(['classic', 'subclass', 'classes', 'class2', 'classé'])(
    '"class" is not found inside the word "%s"',
    (text) => {
      expect(blocked(`A ${text} example`, ['class'])).toBeUndefined();
    },
  );

  it.each(['class', 'Class.', '(CLASS)', '#class', 'first-class', 'class_of_2026', '«class»'])(
    '"class" is found as a whole word in "%s"',
    (text) => {
      expect(blocked(text, ['class'])?.facet).toBe('content');
    },
  );

  it('matches a phrase across any white space, but only whole', () => {
    expect(blocked('BUY   NOW!', ['buy now'])?.facet).toBe('content');
    expect(blocked('buy\nnow', ['buy now'])?.facet).toBe('content');
    expect(blocked('buy nowhere', ['buy now'])).toBeUndefined();
    expect(blocked('buy, now', ['buy now'])).toBeUndefined();
  });

  it('matches accented terms in either Unicode form, and no longer words', () => {
    expect(blocked('Café au lait', ['café'])?.facet).toBe('content');
    expect(blocked('Cafe\u0301 au lait', ['café'])?.facet).toBe('content');
    expect(blocked('CAFÉ', ['café'])?.facet).toBe('content');
    expect(blocked('Les cafés', ['café'])).toBeUndefined();
    // The decomposed é is e plus a combining mark: "cafe" is not a whole word there.
    expect(blocked('Cafe\u0301 au lait', ['cafe'])).toBeUndefined();
  });

  it('knows word boundaries in other scripts', () => {
    expect(blocked('Кот спит.', ['кот'])?.facet).toBe('content');
    expect(blocked('Котёл кипит.', ['кот'])).toBeUndefined();
    expect(blocked('Η ΘΆΛΑΣΣΑ είναι εδώ', ['θάλασσα'])?.facet).toBe('content');
    // Devanagari vowel signs are combining marks: कम is not a word inside कमी.
    expect(blocked('कमी है', ['कम'])).toBeUndefined();
    expect(blocked('बहुत कम है', ['कम'])?.facet).toBe('content');
  });

  it('treats regular-expression characters in a term literally', () => {
    expect(blocked('I write C++ daily', ['c++'])?.facet).toBe('content');
    expect(blocked('axb', ['a.b'])).toBeUndefined();
    expect(blocked('Get it (free) now', ['(free)'])?.facet).toBe('content');
    expect(blocked('costs $5 only', ['$5'])?.facet).toBe('content');
    expect(blocked('a|b', ['a|b'])?.facet).toBe('content');
    expect(blocked('b', ['a|b'])).toBeUndefined();
  });

  it('looks at every item of a thread and says which one', () => {
    const violation = blocked([{ text: 'All fine' }, { text: 'Then some spam.' }], ['spam']);

    expect(violation).toEqual({
      facet: 'content',
      reason: 'content[1].text contains the blocked term "spam".',
    });
  });

  it('looks at alt texts, which are published with the post', () => {
    expect(blocked('Clean text', ['spam'], [image('a spam photo')])?.reason).toBe(
      'media[0].alt contains the blocked term "spam".',
    );
    expect(blocked([{ text: 'ok', media: [image('spam')] }], ['spam'])?.reason).toContain(
      'content[0].media[0].alt',
    );
  });

  it('reports the first listed term that is found', () => {
    expect(blocked('spam and scam', ['nothing', 'scam', 'spam'])?.reason).toContain('"scam"');
  });

  const WORDS = ['spam', 'Spam', 'SPAM', 'spammy', 'xspam', 'ham', 'é', 'ж', '7', 'spam7'];
  const SEPARATORS = [' ', ',', '.', '\n', '-', '_', '!', '#'];

  it('finds a single-word term exactly when a reference tokenizer sees it as a word', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS, ...SEPARATORS), { maxLength: 12 }), (parts) => {
        // Prepare
        const text = parts.join('');
        const tokens = text.split(/[^\p{L}\p{M}\p{N}]+/u);
        const expected = tokens.some((token) => token.toLowerCase() === 'spam');

        // Act
        const violation = blocked(text, ['spam']);

        // Assess
        expect(violation !== undefined).toBe(expected);
      }),
    );
  });

  it('finds no term in any text that does not contain it at all', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '.', 'é', 'ж', '中') }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', 'ж'), minLength: 1 }),
        (text, term) => {
          fc.pre(!text.toLowerCase().includes(term));
          expect(blocked(text, [term])).toBeUndefined();
        },
      ),
    );
  });

  it('always finds a term set apart by separators, in any case', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...SEPARATORS),
        fc.constantFrom(...SEPARATORS),
        fc.string(),
        fc.boolean(),
        (before, left, right, after, upper) => {
          const text = `${before}${left}${upper ? 'BUY NOW' : 'buy now'}${right}${after}`;
          expect(blocked(text, ['buy now'])?.facet).toBe('content');
        },
      ),
    );
  });

  it('never finds a term glued to letters or digits of any script', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'é', 'ж', 'ß', '5', '٣'), minLength: 1 }),
        fc.boolean(),
        (glue, before) => {
          const text = before ? `${glue}spam` : `spam${glue}`;
          expect(blocked(text, ['spam'])).toBeUndefined();
        },
      ),
    );
  });
});

describe('schedule facet', () => {
  const WORKDAYS: PostingWindow = { start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5] };
  const at = (iso: string) => draft({ scheduledAt: iso });

  it.each([
    ['2026-03-04T09:00:00Z', true],
    ['2026-03-04T16:59:59Z', true],
    ['2026-03-04T08:59:59Z', false],
    ['2026-03-04T17:00:00Z', false],
    ['2026-03-07T10:00:00Z', false], // a Saturday
    ['2026-03-09T10:00:00Z', true], // a Monday
  ])('with a 09:00–17:00 Mon–Fri window, %s is allowed: %s', (iso, allowed) => {
    // Act
    const violation = check(at(iso), { postingWindow: WORKDAYS });

    // Assess
    expect(violation === undefined).toBe(allowed);
  });

  it('explains the window in the reason', () => {
    expect(check(at('2026-03-07T10:00:00Z'), { postingWindow: WORKDAYS })).toEqual({
      facet: 'schedule',
      reason:
        'The scheduled time 2026-03-07T10:00:00.000Z is outside the posting window, ' +
        '09:00–17:00 UTC, on Mon, Tue, Wed, Thu, Fri.',
    });
  });

  describe('a window across midnight counts the day it started', () => {
    const FRIDAY_NIGHT: PostingWindow = { start: '22:00', end: '02:00', days: [5] };

    it.each([
      ['Friday 22:00', '2026-03-06T22:00:00Z', true],
      ['Friday 23:59', '2026-03-06T23:59:00Z', true],
      ['Saturday 01:59', '2026-03-07T01:59:59Z', true],
      ['Saturday 02:00 (end exclusive)', '2026-03-07T02:00:00Z', false],
      ['Friday 01:00 (Thursday night)', '2026-03-06T01:00:00Z', false],
      ['Saturday 22:30', '2026-03-07T22:30:00Z', false],
      ['Friday 21:59', '2026-03-06T21:59:00Z', false],
    ])('%s allowed: %s', (_name, iso, allowed) => {
      expect(check(at(iso), { postingWindow: FRIDAY_NIGHT }) === undefined).toBe(allowed);
    });

    it('says so in the reason', () => {
      expect(check(at('2026-03-07T22:30:00Z'), { postingWindow: FRIDAY_NIGHT })?.reason).toContain(
        '22:00–02:00 UTC (across midnight), on Fri',
      );
    });
  });

  it('checks now when the post has no scheduledAt, and scheduledAt when it has one', () => {
    const window: PostingWindow = { start: '11:00', end: '13:00' };

    expect(check(draft(), { postingWindow: window })).toBeUndefined();
    expect(check(at('2026-03-04T20:00:00Z'), { postingWindow: window })?.facet).toBe('schedule');
    expect(check(draft(), { postingWindow: window }, Date.parse('2026-03-04T20:00:00Z'))?.reason).toMatch(
      /^Now \(2026-03-04T20:00:00.000Z\) is outside the posting window/,
    );
    expect(
      check(at('2026-03-05T12:30:00Z'), { postingWindow: window }, Date.parse('2026-03-04T20:00:00Z')),
    ).toBe(undefined);
  });

  describe('blackout dates', () => {
    const CHRISTMAS: WorkspacePolicies = { blackoutDates: ['2026-12-24', '2026-12-25'] };
    const christmasMorning = Date.parse('2026-12-25T09:00:00Z');

    it('refuses a post scheduled on one', () => {
      expect(check(at('2026-12-25T10:00:00Z'), CHRISTMAS)).toEqual({
        facet: 'schedule',
        reason: 'Nothing may be published on 2026-12-25 (UTC), a blackout date.',
      });
    });

    it('refuses publishing now on one', () => {
      expect(check(draft(), CHRISTMAS, christmasMorning)?.facet).toBe('schedule');
    });

    it('lets a post scheduled after it through, even while today is one', () => {
      expect(check(at('2026-12-26T10:00:00Z'), CHRISTMAS, christmasMorning)).toBeUndefined();
    });

    it('takes the UTC date of a time given with an offset', () => {
      // 23:30 on the 23rd at UTC−02:00 is 01:30 on the 24th in UTC.
      expect(check(at('2026-12-23T23:30:00-02:00'), CHRISTMAS)?.reason).toContain('2026-12-24');
      // 00:30 on the 26th at UTC+02:00 is still the 25th in UTC.
      expect(check(at('2026-12-26T00:30:00+02:00'), CHRISTMAS)?.reason).toContain('2026-12-25');
    });

    it('passes other dates', () => {
      expect(check(at('2026-12-23T23:59:59Z'), CHRISTMAS)).toBeUndefined();
    });
  });

  it('refuses a scheduledAt that is not a date rather than letting it past', () => {
    expect(check(at('next tuesday'), { blackoutDates: ['2026-12-25'] })?.facet).toBe('schedule');
  });

  it('ignores scheduledAt when the workspace has no schedule policy', () => {
    expect(check(at('next tuesday'), { blockedTerms: ['spam'] })).toBeUndefined();
  });

  /**
   * The reference: the week as 10,080 minutes; each allowed day opens the window at its start for
   * (end − start) mod 1440 minutes, which may run into the next day (and from Saturday into Sunday).
   */
  function referenceInside(window: PostingWindow, moment: number): boolean {
    const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
    const start = minutes(window.start);
    const length = (minutes(window.end) - start + 1440) % 1440;
    const date = new Date(moment);
    const weekMinute = date.getUTCDay() * 1440 + date.getUTCHours() * 60 + date.getUTCMinutes();
    const days = window.days ?? [0, 1, 2, 3, 4, 5, 6];
    return days.some((day) => (weekMinute - (day * 1440 + start) + 10_080) % 10_080 < length);
  }

  const clock = fc
    .record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) })
    .map(({ h, m }) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const windows = fc
    .record({
      start: clock,
      end: clock,
      days: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }), {
        nil: undefined,
      }),
    })
    .filter((window) => window.start !== window.end)
    .map(({ days, ...window }): PostingWindow => ({ ...window, ...(days && { days }) }));
  const moments = fc.integer({
    min: Date.parse('2000-01-01T00:00:00Z'),
    max: Date.parse('2100-01-01T00:00:00Z'),
  });

  it('agrees with the reference for any window and any moment', () => {
    fc.assert(
      fc.property(windows, moments, (window, moment) => {
        // Act
        const violation = check(draft({ scheduledAt: new Date(moment).toISOString() }), {
          postingWindow: window,
        });

        // Assess
        expect(violation === undefined).toBe(referenceInside(window, moment));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the reference at every minute of a day, for any window', () => {
    fc.assert(
      fc.property(windows, fc.integer({ min: 0, max: 1439 }), (window, minute) => {
        const moment = Date.parse('2026-03-04T00:00:00Z') + minute * 60_000;
        expect(isInsideWindow(window, moment)).toBe(referenceInside(window, moment));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('media facet: alt text', () => {
  const requireAlt: WorkspacePolicies = { requireAltText: true };

  it('passes images with alt text', () => {
    expect(check(draft({ media: [image('A red bicycle')] }), requireAlt)).toBeUndefined();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', ' \n\t'],
  ])('refuses an image whose alt text is %s', (_name, alt) => {
    expect(check(draft({ media: [image('ok'), image(alt)] }), requireAlt)).toEqual({
      facet: 'media',
      reason: 'Every image needs alt text; media[1] has none.',
    });
  });

  it('needs none for videos and documents', () => {
    const media: MediaRef[] = [video, { id: 'med_clip' }, { id: 'med_pdf' }];
    expect(check(draft({ postType: 'video', media }), requireAlt)).toBeUndefined();
  });

  it('asks the lookup for the kind of stored media', () => {
    expect(check(draft({ media: [{ id: 'med_photo' }] }), requireAlt)?.reason).toContain('media[0]');
    expect(check(draft({ media: [{ id: 'med_photo', alt: 'Team photo' }] }), requireAlt)).toBeUndefined();
  });

  it('looks into every item of a carousel', () => {
    const content = [{ media: [image('first')] }, { text: 'two', media: [video, image()] }];

    expect(check(draft({ postType: 'carousel', content }), requireAlt)?.reason).toBe(
      'Every image needs alt text; content[1].media[1] has none.',
    );
  });

  it('looks at top-level media next to items', () => {
    const content = [{ text: 'one' }];
    expect(check(draft({ content, media: [image()] }), requireAlt)?.facet).toBe('media');
  });
});

describe('facet order', () => {
  /** A policy set and a post that break exactly the facets named. */
  function breaking(facets: readonly PolicyFacet[]): { post: PostDraft; policies: WorkspacePolicies } {
    const broken = new Set(facets);
    return {
      post: draft({
        platform: broken.has('platform') ? 'tiktok' : 'linkedin',
        content: broken.has('content') ? 'win free spam' : 'a clean post',
        scheduledAt: broken.has('schedule') ? '2026-03-04T03:00:00Z' : '2026-03-04T10:00:00Z',
        media: [image(broken.has('media') ? undefined : 'described')],
      }),
      policies: {
        allowedPlatforms: ['linkedin'],
        blockedTerms: ['spam'],
        postingWindow: { start: '09:00', end: '17:00' },
        requireAltText: true,
      },
    };
  }

  it('is platform, content, schedule, media', () => {
    expect(POLICY_FACET_ORDER).toEqual(['platform', 'content', 'schedule', 'media']);
  });

  it('reports the first broken facet in that order, whichever are broken', () => {
    fc.assert(
      fc.property(fc.subarray([...POLICY_FACET_ORDER]), (facets) => {
        // Prepare
        const { post, policies } = breaking(facets);

        // Act
        const violation = checkPolicies(post, policies, ctx);

        // Assess
        expect(violation?.facet).toBe(POLICY_FACET_ORDER.find((facet) => facets.includes(facet)));
      }),
    );
  });
});

describe('workspacePoliciesSchema', () => {
  const valid: WorkspacePolicies = {
    requireApproval: true,
    blockedTerms: ['spam', 'buy now', 'café'],
    allowedPlatforms: ['linkedin', 'twitter'],
    postingWindow: { start: '22:00', end: '02:00', days: [5, 6] },
    blackoutDates: ['2026-12-25', '2028-02-29'],
    requireAltText: false,
  };

  it('accepts a full set of policies unchanged, and an empty one', () => {
    expect(workspacePoliciesSchema.parse(valid)).toEqual(valid);
    expect(workspacePoliciesSchema.parse({})).toEqual({});
  });

  it.each<[string, unknown]>([
    ['a time past 23:59', { postingWindow: { start: '24:00', end: '02:00' } }],
    ['a one-digit hour', { postingWindow: { start: '9:00', end: '17:00' } }],
    ['minute 60', { postingWindow: { start: '09:60', end: '17:00' } }],
    ['start equal to end', { postingWindow: { start: '09:00', end: '09:00' } }],
    ['a missing end', { postingWindow: { start: '09:00' } }],
    ['day 7', { postingWindow: { start: '09:00', end: '17:00', days: [7] } }],
    ['a repeated day', { postingWindow: { start: '09:00', end: '17:00', days: [1, 1] } }],
    ['no day at all', { postingWindow: { start: '09:00', end: '17:00', days: [] } }],
    ['a fractional day', { postingWindow: { start: '09:00', end: '17:00', days: [1.5] } }],
    ['February 30th', { blackoutDates: ['2026-02-30'] }],
    ['February 29th of a common year', { blackoutDates: ['2026-02-29'] }],
    ['a date without zero padding', { blackoutDates: ['2026-2-3'] }],
    ['a timestamp for a date', { blackoutDates: ['2026-12-25T00:00:00Z'] }],
    ['a repeated date', { blackoutDates: ['2026-12-25', '2026-12-25'] }],
    ['an unknown platform', { allowedPlatforms: ['myspace'] }],
    ['the alias x (stored as twitter)', { allowedPlatforms: ['x'] }],
    ['no platform at all', { allowedPlatforms: [] }],
    ['a repeated platform', { allowedPlatforms: ['linkedin', 'linkedin'] }],
    ['an empty term', { blockedTerms: [''] }],
    ['a padded term', { blockedTerms: [' spam'] }],
    ['a 101-character term', { blockedTerms: ['a'.repeat(101)] }],
    ['501 terms', { blockedTerms: Array.from({ length: 501 }, (_, i) => `term${i}`) }],
    ['an unknown member', { requireVideo: true }],
    ['a string for a boolean', { requireAltText: 'true' }],
  ])('refuses %s', (_name, policies) => {
    expect(workspacePoliciesSchema.safeParse(policies).success).toBe(false);
  });

  it('accepts the limits themselves', () => {
    const policies = {
      blockedTerms: [...Array.from({ length: 499 }, (_, i) => `term${i}`), 'a'.repeat(100)],
    };
    expect(workspacePoliciesSchema.safeParse(policies).success).toBe(true);
  });

  it('accepts every time of day from 00:00 to 23:59', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), (minute) => {
        const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
        const end = minute === 0 ? '00:01' : '00:00';
        expect(workspacePoliciesSchema.safeParse({ postingWindow: { start: time, end } }).success).toBe(true);
      }),
    );
  });

  it('accepts a date exactly when the calendar has it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
          expect(workspacePoliciesSchema.safeParse({ blackoutDates: [text] }).success).toBe(
            day <= daysInMonth,
          );
        },
      ),
    );
  });
});
