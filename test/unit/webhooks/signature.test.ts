import fc from 'fast-check';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  newWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_SECRET_PATTERN,
} from '../../../shared/domain/webhooks/signature.js';

const SECRET = 'whsec_7jHn2Vh0hQe3wqF4l9Yp0uXrS5dK8mT1bC6aZ2yE3xw';
const NOW = 1_900_000_000;
const BODY = '{"id":"evt_01JD0000000000000000000000","type":"post.published","data":{"postId":"pst_1"}}';

describe('signWebhook', () => {
  it('writes t=<seconds>,v1=<64 lowercase hex>', () => {
    // Act
    const header = signWebhook(SECRET, NOW, BODY);

    // Assess
    expect(header).toMatch(/^t=1900000000,v1=[0-9a-f]{64}$/);
  });

  it('signs a string and its UTF-8 bytes alike, since the bytes are what is sent', () => {
    const body = '{"content":"café 🚀"}';
    expect(signWebhook(SECRET, NOW, Buffer.from(body, 'utf8'))).toBe(signWebhook(SECRET, NOW, body));
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook(SECRET, 1.5, BODY)).toThrow(RangeError);
    expect(() => signWebhook(SECRET, -1, BODY)).toThrow(RangeError);
    expect(() => signWebhook(SECRET, Date.now() * 1000 * 1000 * 1000, BODY)).toThrow(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts what signWebhook wrote', () => {
    const header = signWebhook(SECRET, NOW, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW)).toEqual({ valid: true, timestamp: NOW });
  });

  it('refuses a changed body, timestamp or secret', () => {
    // Prepare
    const header = signWebhook(SECRET, NOW, BODY);
    const signature = header.split(',v1=')[1];

    // Act / Assess
    expect(verifyWebhookSignature(SECRET, header, `${BODY} `, NOW)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhookSignature(SECRET, `t=${NOW + 1},v1=${signature}`, BODY, NOW)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhookSignature(newWebhookSecret(), header, BODY, NOW)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });

  it('accepts a timestamp up to 300 s away on either side, and refuses one further', () => {
    const at = (t: number) => verifyWebhookSignature(SECRET, signWebhook(SECRET, t, BODY), BODY, NOW);
    expect(at(NOW - 300).valid).toBe(true);
    expect(at(NOW + 300).valid).toBe(true);
    expect(at(NOW - 301)).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(at(NOW + 301)).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
  });

  it('takes another tolerance when given one', () => {
    const header = signWebhook(SECRET, NOW - 60, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW, 30)).toEqual({
      valid: false,
      reason: 'timestamp_outside_tolerance',
    });
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW, 60).valid).toBe(true);
  });

  it('says a forged header does not match before it says anything about its time', () => {
    const forged = `t=${NOW - 10_000},v1=${'0'.repeat(64)}`;
    expect(verifyWebhookSignature(SECRET, forged, BODY, NOW)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });

  it('accepts several v1 entries when one matches, in any position, and ignores other schemes', () => {
    // Prepare
    const good = signWebhook(SECRET, NOW, BODY).split(',v1=')[1];
    const other = signWebhook(newWebhookSecret(), NOW, BODY).split(',v1=')[1];

    // Act / Assess
    expect(verifyWebhookSignature(SECRET, `t=${NOW},v1=${other},v1=${good}`, BODY, NOW).valid).toBe(true);
    expect(verifyWebhookSignature(SECRET, `t=${NOW},v1=${good},v1=${other}`, BODY, NOW).valid).toBe(true);
    expect(verifyWebhookSignature(SECRET, `v0=abc, t=${NOW}, v1=${good}`, BODY, NOW).valid).toBe(true);
    expect(verifyWebhookSignature(SECRET, `t=${NOW},v1=${other},v1=zz`, BODY, NOW)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });

  it('compares lowercase hex only, as the interface writes it', () => {
    const good = signWebhook(SECRET, NOW, BODY).split(',v1=')[1] ?? '';
    expect(verifyWebhookSignature(SECRET, `t=${NOW},v1=${good.toUpperCase()}`, BODY, NOW).valid).toBe(false);
    expect(verifyWebhookSignature(SECRET, `t=${NOW},v1=${good.slice(0, 62)}`, BODY, NOW).valid).toBe(false);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1 entry', `t=${NOW}`],
    ['only another scheme', `t=${NOW},v0=${'a'.repeat(64)}`],
    ['a timestamp that is not digits', `t=${NOW}.5,v1=${'a'.repeat(64)}`],
    ['a negative timestamp', `t=-${NOW},v1=${'a'.repeat(64)}`],
    ['two timestamps', `t=${NOW},t=${NOW + 1},v1=${'a'.repeat(64)}`],
    ['garbage', 'Bearer abc'],
  ])('calls %s a malformed header', (_name, header) => {
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW)).toEqual({
      valid: false,
      reason: 'malformed_header',
    });
  });

  it('round-trips any body, secret and timestamp, and refuses any other body', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (body, secret, timestamp, extra) => {
          const header = signWebhook(secret, timestamp, body);
          expect(verifyWebhookSignature(secret, header, body, timestamp).valid).toBe(true);
          const tampered = Buffer.concat([Buffer.from(body), Buffer.from(extra)]);
          expect(verifyWebhookSignature(secret, header, tampered, timestamp)).toEqual({
            valid: false,
            reason: 'no_matching_signature',
          });
        },
      ),
    );
  });

  it('accepts exactly the clock skews within the tolerance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 600 }),
        (skew, tolerance) => {
          const header = signWebhook(SECRET, NOW, BODY);
          const result = verifyWebhookSignature(SECRET, header, BODY, NOW + skew, tolerance);
          expect(result.valid).toBe(Math.abs(skew) <= tolerance);
        },
      ),
    );
  });

  it('never throws on an arbitrary header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        expect(verifyWebhookSignature(SECRET, header, BODY, NOW).valid).toBe(false);
      }),
    );
  });
});

describe('the Stripe library, an independent verifier of the same scheme', () => {
  it('accepts our header for our body', () => {
    // Prepare
    const header = signWebhook(SECRET, NOW, BODY);

    // Act: receivedAt is in milliseconds in Stripe's API.
    const event = Stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, NOW * 1000);

    // Assess
    expect(event).toMatchObject({ id: 'evt_01JD0000000000000000000000', type: 'post.published' });
  });

  it('refuses our header for another body, and a stale one of ours', () => {
    const header = signWebhook(SECRET, NOW, BODY);
    expect(() =>
      Stripe.webhooks.constructEvent(`${BODY} `, header, SECRET, 300, undefined, NOW * 1000),
    ).toThrow(/No signatures found matching/);
    expect(() =>
      Stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, (NOW + 301) * 1000),
    ).toThrow(/tolerance/);
  });

  it('agrees with us for any body and secret, both ways', () => {
    fc.assert(
      fc.property(
        // Stripe refuses an empty payload outright; ours is never empty (it is the envelope).
        fc.string({ minLength: 1, maxLength: 1024 }),
        fc.string({ minLength: 1, maxLength: 80 }).filter((secret) => secret.trim() === secret),
        fc.integer({ min: 1, max: 2 ** 33 }),
        (body, secret, timestamp) => {
          const ours = signWebhook(secret, timestamp, body);
          const theirs = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
          expect(theirs).toBe(ours);
          expect(
            Stripe.webhooks.signature?.verifyHeader(body, ours, secret, 300, undefined, timestamp * 1000),
          ).toBe(true);
          expect(verifyWebhookSignature(secret, theirs, body, timestamp).valid).toBe(true);
        },
      ),
    );
  });
});

describe('newWebhookSecret', () => {
  it('is whsec_ and 32 random bytes in base64url', () => {
    // Act
    const secret = newWebhookSecret();

    // Assess
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
  });

  it('takes its bytes from the random source, all of them', () => {
    const bytes = Buffer.alloc(32, 0xff);
    expect(newWebhookSecret(() => bytes)).toBe(`whsec_${'_'.repeat(42)}8`);
  });

  it('gives a different secret each time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => newWebhookSecret()));
    expect(secrets.size).toBe(50);
  });
});
