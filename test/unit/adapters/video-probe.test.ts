import { describe, expect, it } from 'vitest';
import { makeVideoProbe } from '../../../shared/adapters/video-probe/video-probe.js';
import type { MediaBytes } from '../../../shared/ports/media-bytes.js';
import { movieFile, webmFile } from '../../support/video-files.js';

/** MediaBytes over one file in memory, recording each ranged read (as S3 GetObject with Range would be). */
function oneFile(file: Buffer, options: { failReads?: boolean } = {}) {
  const reads: { start: number; end: number }[] = [];
  const bytes: MediaBytes = {
    async readRange(_key, start, end) {
      if (options.failReads) throw new Error('S3 is unreachable');
      if (end > file.length) throw new RangeError('past the end');
      reads.push({ start, end });
      return new Uint8Array(file.subarray(start, end));
    },
    stream: async () => {
      throw new Error('the probe reads ranges, never the whole file');
    },
  };
  const probe = makeVideoProbe(bytes);
  return {
    reads,
    bytesRead: () => reads.reduce((sum, read) => sum + read.end - read.start, 0),
    probe: (mimeType: string) => probe.stored('t/k', mimeType, file.length),
  };
}

describe('video probe', () => {
  it('reads an MP4 movie header: its duration and frame size', async () => {
    const file = oneFile(movieFile({ durationSeconds: 12.5, width: 1920, height: 1080 }));

    expect(await file.probe('video/mp4')).toEqual({ durationSeconds: 12.5, width: 1920, height: 1080 });
  });

  it('skips the media data of a QuickTime movie whose moov comes last, reading only its headers', async () => {
    const movie = movieFile({
      durationSeconds: 200,
      flavour: 'mov',
      moovLast: true,
      mediaBytes: 8 * 1024 * 1024,
    });
    const file = oneFile(movie);

    const facts = await file.probe('video/quicktime');

    expect(facts).toEqual({ durationSeconds: 200, width: 1280, height: 720 });
    expect(file.bytesRead()).toBeLessThan(128 * 1024);
    expect(file.reads.some((read) => read.end === movie.length)).toBe(true);
  });

  it("turns a phone's rotated portrait video upright", async () => {
    const file = oneFile(movieFile({ durationSeconds: 5, width: 1920, height: 1080, rotated: true }));

    expect(await file.probe('video/mp4')).toEqual({ durationSeconds: 5, width: 1080, height: 1920 });
  });

  it('reads a WebM Info and Tracks from the head of the file', async () => {
    const file = oneFile(webmFile({ durationSeconds: 42.25, width: 640, height: 360, clusterBytes: 4096 }));

    expect(await file.probe('video/webm')).toEqual({ durationSeconds: 42.25, width: 640, height: 360 });
  });

  it('leaves the duration unknown for a WebM file that states none (a MediaRecorder recording)', async () => {
    const file = oneFile(webmFile({ width: 640, height: 480 }));

    expect(await file.probe('video/webm')).toEqual({ width: 640, height: 480 });
  });

  it('answers nothing for bytes that are not what the type says, and reads no other type', async () => {
    const garbage = oneFile(Buffer.from('this is not a movie at all, only some text'.repeat(20)));
    const webmAsMp4 = oneFile(webmFile({ durationSeconds: 3 }));
    const mp4AsWebm = oneFile(movieFile({ durationSeconds: 3 }));
    const image = oneFile(movieFile({ durationSeconds: 3 }));

    expect(await garbage.probe('video/mp4')).toEqual({});
    expect(await webmAsMp4.probe('video/mp4')).toEqual({});
    expect(await mp4AsWebm.probe('video/webm')).toEqual({});
    expect(await image.probe('image/png')).toEqual({});
    expect(image.reads).toEqual([]);
  });

  it('rejects when the storage read fails (not the file: a later confirm may read it)', async () => {
    const file = oneFile(movieFile({ durationSeconds: 3 }), { failReads: true });

    await expect(file.probe('video/mp4')).rejects.toThrow('S3 is unreachable');
  });

  it('reads bytes in memory the same way', async () => {
    const noBucket: MediaBytes = {
      readRange: async () => {
        throw new Error('bytes in memory need no bucket');
      },
      stream: async () => {
        throw new Error('bytes in memory need no bucket');
      },
    };
    const probe = makeVideoProbe(noBucket);

    expect(await probe.inMemory(movieFile({ durationSeconds: 7 }), 'video/mp4')).toEqual({
      durationSeconds: 7,
      width: 1280,
      height: 720,
    });
  });
});
