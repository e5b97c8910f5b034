import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filenameFrom, filenameProblem } from '../../../shared/domain/media.js';
import { uploadUrlBody } from '../../../shared/operations/media/media-schemas.js';

/** The upload schema refuses what `filenameProblem` refuses; a made-up name always passes it. */
describe('media file names', () => {
  const upload = (filename: string) =>
    uploadUrlBody.safeParse({ filename, mimeType: 'image/png', sizeBytes: 1 });

  it('the upload schema agrees with filenameProblem on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
        expect(upload(name).success).toBe(filenameProblem(name) === undefined);
      }),
    );
  });

  it('filenameFrom always gives a name filenameProblem accepts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        expect(filenameProblem(filenameFrom(raw))).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('%2F', '%5C', '%2E', '%E2%80%AE', '%00', '%20', '%', 'a', 'é', '%C3%A9', '.'),
          {
            maxLength: 200,
          },
        ),
        (parts) => {
          expect(filenameProblem(filenameFrom(parts.join('')))).toBeUndefined();
        },
      ),
    );
  });

  it('filenameFrom keeps a plain name as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), (name) => {
        fc.pre(filenameProblem(name) === undefined && !name.includes('%'));
        expect(filenameFrom(name)).toBe(name);
      }),
    );
  });
});
