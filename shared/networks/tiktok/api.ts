import { isSafeNumber, parse as parseLosslessly } from 'lossless-json';
import * as z from 'zod';
import { readJson } from '../http/json-answer.js';
import { networkFetch } from '../http/network-fetch.js';

/**
 * TikTok's v2 API (networks/tiktok.md §1): every call is a JSON POST with the user's bearer token,
 * and every answer is an envelope `{data, error: {code, message, log_id}}` that succeeded only when
 * `error.code` is `ok`. Chunk uploads go to the `upload_url` TikTok hands out (another host).
 */
export interface TikTokCall {
  /** Under TIKTOK_API_URL, e.g. `/v2/post/publish/status/fetch/`. */
  path: string;
  accessToken: string;
  /** POST (with a JSON body) unless said; user/info is a GET. */
  method?: 'GET' | 'POST';
  json?: unknown;
  signal: AbortSignal;
}

export interface TikTokChunkPut {
  url: string;
  bytes: Uint8Array;
  contentType: string;
  /** `bytes {first}-{last}/{total}`. */
  contentRange: string;
  signal: AbortSignal;
}

export function makeTikTokApi(apiUrl: string, fetchImpl: typeof fetch | undefined) {
  return {
    call(request: TikTokCall): Promise<Response> {
      const method = request.method ?? 'POST';
      return networkFetch(
        `${apiUrl}${request.path}`,
        {
          method,
          headers: {
            Authorization: `Bearer ${request.accessToken}`,
            ...(method === 'POST' && { 'Content-Type': 'application/json; charset=UTF-8' }),
          },
          ...(request.json !== undefined && { body: JSON.stringify(request.json) }),
          signal: request.signal,
        },
        fetchImpl,
      );
    },
    putChunk(request: TikTokChunkPut): Promise<Response> {
      return networkFetch(
        request.url,
        {
          method: 'PUT',
          headers: {
            'Content-Type': request.contentType,
            'Content-Range': request.contentRange,
          },
          body: request.bytes,
          signal: request.signal,
        },
        fetchImpl,
      );
    },
  };
}

export type TikTokApi = ReturnType<typeof makeTikTokApi>;

const Envelope = z.object({
  data: z.unknown().optional(),
  error: z.object({ code: z.string().min(1) }).optional(),
});

/** What an answer says: its HTTP status, TikTok's `error.code` (`ok` on success), and its data. */
export interface TikTokAnswer {
  status: number;
  code: string;
  data: unknown;
}

/**
 * A JSON number as a JS number when that is exact, else its digits as written: TikTok's post ids
 * are int64 (`publicaly_available_post_id`, list<int64>), and a 19-digit id read as a JS number
 * silently becomes another id. Node 20's JSON.parse cannot hand over a number's source text, so
 * lossless-json parses the answer.
 */
const exactNumber = (digits: string): number | string => (isSafeNumber(digits) ? Number(digits) : digits);

export async function readAnswer(response: Response): Promise<TikTokAnswer> {
  const parsed = Envelope.safeParse(
    await readJson(response, (text) => parseLosslessly(text, null, exactNumber)),
  );
  const code = parsed.success ? parsed.data.error?.code : undefined;
  return {
    status: response.status,
    // An answer without TikTok's envelope (a proxy's page) is named by its status.
    code: code ?? (response.ok ? 'unreadable' : `http_${response.status}`),
    data: parsed.success ? parsed.data.data : undefined,
  };
}

export function isOk(answer: TikTokAnswer): boolean {
  return answer.status >= 200 && answer.status < 300 && answer.code === 'ok';
}

/** Where a member sees a published post: TikTok's web URL of the creator's video or photo post. */
export function tiktokPostUrl(handle: string, kind: 'video' | 'photo', postId: string): string {
  return `https://www.tiktok.com/@${encodeURIComponent(handle.replace(/^@/, ''))}/${kind}/${postId}`;
}

export function tiktokProfileUrl(handle: string): string {
  return `https://www.tiktok.com/@${encodeURIComponent(handle.replace(/^@/, ''))}`;
}
