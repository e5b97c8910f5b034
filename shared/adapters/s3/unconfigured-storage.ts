import { ServiceUnavailableError } from '../../domain/errors.js';
import type { ObjectStorage } from '../../ports/object-storage.js';

/** Storage of a deployment that has no media bucket: every media call answers 503, saying why. */
export function makeUnconfiguredStorage(): ObjectStorage {
  const refuse = async (): Promise<never> => {
    throw new ServiceUnavailableError('Media storage is not configured on this deployment (MEDIA_BUCKET).');
  };
  return { presignPut: refuse, head: refuse, put: refuse, get: refuse, delete: refuse };
}
