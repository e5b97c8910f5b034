import { makeOperationHandler } from '../shared/http/operation-handler.js';
import { operationById } from '../shared/operations/registry.js';
import { loadConfig, requireEnv } from '../shared/runtime/config.js';
import { makeDeps } from '../shared/runtime/make-deps.js';

/**
 * The reference of `npm run bench:bundles`: the entry every operation's Lambda ran before each got
 * its own (infra/operation-entries.ts), one bundle with the whole registry and every adapter, told
 * apart by OPERATION_ID. Not deployed.
 */
export const handler = makeOperationHandler(
  operationById(requireEnv('OPERATION_ID')),
  makeDeps(loadConfig()),
);
