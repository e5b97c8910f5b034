import { NoAnswerError } from './network-fetch.js';

/**
 * A JSON body, or undefined when the answer has none or it is not JSON: the connectors map a
 * network's answer by its status first, so an unreadable body is not an error of its own. A body
 * cut off while it was read (a reset, an abort) is a NoAnswerError, like a request that got no
 * answer at all: the network may have acted on it. `parseText` replaces JSON.parse where a
 * network's numbers do not fit a JS number (TikTok's int64 post ids).
 */
export async function readJson(
  response: Response,
  parseText: (text: string) => unknown = JSON.parse,
): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new NoAnswerError('BODY_INTERRUPTED', { cause: error });
  }
  if (text === '') return undefined;
  try {
    return parseText(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
