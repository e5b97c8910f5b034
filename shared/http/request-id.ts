import { newId } from '../domain/ids.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The caller's X-Request-Id when it is a sane value (so logs can be joined), else a new one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : newId('request');
}
