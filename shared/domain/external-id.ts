/**
 * The caller's own id for a post (`externalId`): an entry of a calendar file, a row of their CMS.
 * Visible ASCII without spaces, so it can end an index key with a space (adapters/dynamodb/keys.ts)
 * and travel in a query string unescaped by most tools. Not unique: the service never interprets it.
 */
export const EXTERNAL_ID_PATTERN = /^[\x21-\x7E]{1,200}$/;

export const EXTERNAL_ID_RULE = '1–200 visible ASCII characters, no spaces.';
