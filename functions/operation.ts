import { makeOperationHandler } from '../shared/http/operation-handler.js';
import { operationById } from '../shared/operations/registry.js';
import { loadConfig, requireEnv } from '../shared/runtime/config.js';
import { makeDeps } from '../shared/runtime/make-deps.js';

/**
 * Every operation's Lambda runs this entry; OPERATION_ID (set by infra/) says which operation it is.
 * Config is read at cold start, so a missing setting fails the start, not a request.
 */
export const handler = makeOperationHandler(
  operationById(requireEnv('OPERATION_ID')),
  makeDeps(loadConfig()),
);
