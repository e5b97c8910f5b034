import '../shared/runtime/source-maps-on-error.js';
import { makeFallbackHandler } from '../shared/http/fallback-handler.js';
import { operations } from '../shared/operations/registry.js';

/** API Gateway's `$default` route: 405 (with Allow) for a known path under another method, else 404. */
export const handler = makeFallbackHandler(operations);
