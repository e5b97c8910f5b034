import { loadConfig } from '../shared/runtime/config.js';
import { makeDeps } from '../shared/runtime/make-deps.js';
import { makeAutoConfirm } from '../shared/services/media/auto-confirm.js';

/** The media bucket's object-created notification: uploads confirm themselves. */
export const handler = makeAutoConfirm(makeDeps(loadConfig()));
