import { NoAnswerError, networkFetch } from '../http/network-fetch.js';

export interface YouTubeCall {
  method: 'GET' | 'POST' | 'PUT';
  /** An absolute URL: under YOUTUBE_API_URL or YOUTUBE_UPLOAD_URL, or an upload session's. */
  url: string;
  accessToken: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
  bytes?: Uint8Array;
  signal: AbortSignal;
}

/** One authenticated call to the YouTube Data API, through networkFetch (failures say whether it was sent). */
export function makeYouTubeApi(fetchImpl: typeof fetch | undefined) {
  return function call(request: YouTubeCall): Promise<Response> {
    const url = new URL(request.url);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${request.accessToken}`,
      ...request.headers,
    };
    let body: RequestInit['body'];
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json; charset=UTF-8';
      body = JSON.stringify(request.json);
    } else if (request.bytes !== undefined) {
      body = request.bytes;
    }
    return networkFetch(
      url,
      { method: request.method, headers, ...(body !== undefined && { body }), signal: request.signal },
      fetchImpl,
    );
  };
}

export type YouTubeApi = ReturnType<typeof makeYouTubeApi>;

/**
 * A JSON body, or undefined when there is none or it is not JSON. A body cut off while it was read
 * is a NoAnswerError, like a request that got no answer at all.
 */
export async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new NoAnswerError('BODY_INTERRUPTED', { cause: error });
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a viewer finds the video (a Short plays at the same address). */
export function youTubeVideoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}
