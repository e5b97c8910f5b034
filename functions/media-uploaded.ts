import '../shared/runtime/source-maps-on-error.js';
import { makeDepsFromEnv } from '../shared/runtime/make-core-deps.js';
import { s3StoragePart } from '../shared/runtime/s3-storage-part.js';
import { makeMediaUploadedHandler } from '../shared/triggers/media-uploaded.js';

/** The media bucket's object-created notification: uploads confirm themselves (DynamoDB and S3 only). */
export const handler = makeMediaUploadedHandler(makeDepsFromEnv([s3StoragePart]));
