import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldPath, parseInput, toValidationDetails } from '../../../shared/http/validation-details.js';

describe('fieldPath', () => {
  it('writes array indexes in brackets and properties with dots', () => {
    expect(fieldPath(['content', 1, 'text'], 'body')).toBe('content[1].text');
  });

  it('is the root name for an issue on the whole value', () => {
    expect(fieldPath([], 'body')).toBe('body');
  });

  it('is the property name alone for a top-level field', () => {
    expect(fieldPath(['platform'], 'body')).toBe('platform');
  });

  it('chains nested objects and arrays', () => {
    expect(fieldPath(['media', 0, 'userTags', 2, 'x'], 'body')).toBe('media[0].userTags[2].x');
  });

  it('writes consecutive indexes of nested arrays one after the other', () => {
    expect(fieldPath(['grid', 3, 4], 'body')).toBe('grid[3][4]');
  });
});

describe('toValidationDetails', () => {
  const postSchema = z.object({
    platform: z.enum(['twitter', 'linkedin']),
    title: z
      .string()
      .min(5)
      .regex(/^[a-z]+$/),
    content: z.array(z.object({ text: z.string().max(10) })),
  });

  it('maps each failing field to its messages, with the same paths clients send', () => {
    // Prepare
    const result = postSchema.safeParse({
      platform: 'myspace',
      title: 'abcdef',
      content: [{ text: 'ok' }, { text: 'far too long for this' }],
    });
    if (result.success) throw new Error('the fixture must fail validation');

    // Act
    const details = toValidationDetails(result.error, 'body');

    // Assess
    expect(Object.keys(details).sort()).toEqual(['content[1].text', 'platform']);
    expect(details.platform).toHaveLength(1);
    expect(details['content[1].text']).toHaveLength(1);
    expect(details['content[1].text']?.[0]).toMatch(/10/);
  });

  it('groups several messages of one field under that field', () => {
    // Prepare: "AB" is both too short and not lowercase.
    const result = postSchema.safeParse({ platform: 'twitter', title: 'AB', content: [] });
    if (result.success) throw new Error('the fixture must fail validation');

    // Act
    const details = toValidationDetails(result.error, 'body');

    // Assess
    expect(Object.keys(details)).toEqual(['title']);
    expect(details.title).toHaveLength(2);
    expect(details.title).toEqual(result.error.issues.map((issue) => issue.message));
  });

  it('reports a value of the wrong type as a whole under the root name', () => {
    // Prepare
    const result = postSchema.safeParse('not an object');
    if (result.success) throw new Error('the fixture must fail validation');

    // Act
    const details = toValidationDetails(result.error, 'query');

    // Assess
    expect(Object.keys(details)).toEqual(['query']);
    expect(details.query).toHaveLength(1);
  });

  it('is only strings, never zod issue objects', () => {
    // Prepare
    const result = postSchema.safeParse({});
    if (result.success) throw new Error('the fixture must fail validation');

    // Act
    const details = toValidationDetails(result.error, 'body');

    // Assess
    expect(Object.keys(details).sort()).toEqual(['content', 'platform', 'title']);
    for (const messages of Object.values(details)) {
      for (const message of messages) expect(typeof message).toBe('string');
    }
  });
});

describe('parseInput', () => {
  const body = z.strictObject({
    accountId: z.string(),
    platform: z.enum(['twitter', 'linkedin']),
    content: z.union([z.string(), z.array(z.strictObject({ text: z.string() }))]),
    scheduledAt: z.string().optional(),
  });

  it('says "Required" for every key left out, whatever its type (string, enum, union)', () => {
    // Act
    const parsed = parseInput(body, {}, 'body');

    // Assess
    expect(parsed).toEqual({
      success: false,
      details: { accountId: ['Required'], platform: ['Required'], content: ['Required'] },
    });
  });

  it('says "Required" for a body left out as a whole', () => {
    expect(parseInput(body, undefined, 'body')).toEqual({ success: false, details: { body: ['Required'] } });
  });

  it("keeps zod's message for a value that is there but wrong", () => {
    const parsed = parseInput(body, { accountId: 'a', platform: 'myspace', content: null }, 'body');
    if (parsed.success) throw new Error('the fixture must fail validation');
    expect(parsed.details.platform?.[0]).toMatch(/twitter/);
    expect(parsed.details.content).not.toEqual(['Required']);
  });

  it('names the closest field for an unknown one, under the object it was sent in', () => {
    // Act
    const parsed = parseInput(
      body,
      { accountId: 'a', platform: 'twitter', contnet: 'hi', content: [{ text: 'a', txet: 'b' }] },
      'body',
    );

    // Assess
    expect(parsed).toEqual({
      success: false,
      details: {
        body: ['Unknown field `contnet`; did you mean `content`?'],
        'content[0]': ['Unknown field `txet`; did you mean `text`?'],
      },
    });
  });

  it('lists the fields taken when no known one is close', () => {
    const parsed = parseInput(
      body,
      { accountId: 'a', platform: 'twitter', content: 'hi', colour: 'red' },
      'body',
    );
    expect(parsed).toEqual({
      success: false,
      details: {
        body: ['Unknown field `colour`; expected one of `accountId`, `platform`, `content`, `scheduledAt`.'],
      },
    });
  });

  it('answers the parsed value when the input fits', () => {
    expect(parseInput(body, { accountId: 'a', platform: 'twitter', content: 'hi' }, 'body')).toEqual({
      success: true,
      data: { accountId: 'a', platform: 'twitter', content: 'hi' },
    });
  });
});
