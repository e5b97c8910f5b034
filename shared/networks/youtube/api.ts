import { networkFetch } from '../http/network-fetch.js';

export { isRecord, readJson } from '../http/json-answer.js';

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

/** Where a viewer finds the video (a Short plays at the same address). */
export function youTubeVideoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}
