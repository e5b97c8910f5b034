import { ServiceUnavailableError } from '../../domain/errors.js';
import type { VideoProbe } from '../../ports/video-probe.js';

/**
 * The video probe of a function given no media storage: it answers as that storage does (503),
 * without the container readers, so functions that never probe a video do not carry them (mp4box
 * alone is about 180 KiB of a bundle).
 */
export function makeUnconfiguredVideoProbe(): VideoProbe {
  const refuse = async (): Promise<never> => {
    throw new ServiceUnavailableError('Media storage is not configured on this deployment (MEDIA_BUCKET).');
  };
  return { stored: refuse, inMemory: refuse };
}
