import * as z from 'zod';

/**
 * An image a network's option references (YouTube's thumbnail, an Instagram reel's cover): a
 * pre-uploaded image (`id`) or an image's public HTTPS URL, fetched and stored at publish time. Its
 * options hand it to the worker through NetworkOptions.media. `what` says what the image must be
 * (its formats and size), in the fields' descriptions.
 */
export function optionImageSchema(what: string) {
  return z
    .union([
      z.strictObject({
        id: z
          .string()
          .regex(/^med_[0-9A-Za-z]{1,64}$/, 'Expected an id starting with med_.')
          .describe(`A pre-uploaded image (med_...): ${what}.`),
      }),
      z.strictObject({
        url: z
          .url({ protocol: /^https$/ })
          .max(2048)
          .describe(`A public HTTPS URL of the image, fetched and stored at publish time: ${what}.`),
        type: z.literal('image').describe('Always image.'),
      }),
    ])
    .describe(`A pre-uploaded image (id) or an image's public HTTPS URL (url, type image): ${what}.`);
}
