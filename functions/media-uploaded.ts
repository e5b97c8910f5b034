import '../shared/runtime/source-maps-on-error.js';
import { makeDepsFromEnv } from '../shared/runtime/make-core-deps.js';
import { s3StoragePart } from '../shared/runtime/s3-storage-part.js';
import { makeAutoConfirm } from '../shared/services/media/auto-confirm.js';

/** The media bucket's object-created notification: uploads confirm themselves (DynamoDB and S3 only). */
export const handler = makeAutoConfirm(makeDepsFromEnv([s3StoragePart]));
