import { type GraphCall as SharedGraphCall, sendGraphCall } from '../graph-api/call.js';
import { networkFetch } from '../http/network-fetch.js';
import { FACEBOOK_GRAPH_VERSION } from './limits.js';

export { isRecord, readJson } from '../http/json-answer.js';

/** The Graph API's hosts the connector calls (FACEBOOK_GRAPH_URL, FACEBOOK_GRAPH_VIDEO_URL, FACEBOOK_RUPLOAD_URL). */
export interface FacebookHosts {
  graphUrl: string;
  graphVideoUrl: string;
  ruploadUrl: string;
}

/** A POST's `params` go as form fields, never JSON: Meta drops JSON-encoded attachments (§2.3). */
export interface GraphCall extends SharedGraphCall {
  /** Feed videos go to the video host; everything else to the Graph host. */
  host?: 'graph' | 'video';
}

/**
 * Calls to the Graph API through networkFetch, so a failure says whether the request can have
 * reached Meta. The token travels in the Authorization header, never in a URL that could end up
 * in a log; a POST's parameters go as a form body.
 */
export function makeFacebookApi(hosts: FacebookHosts, fetchImpl: typeof fetch | undefined) {
  function call(request: GraphCall): Promise<Response> {
    const base = request.host === 'video' ? hosts.graphVideoUrl : hosts.graphUrl;
    return sendGraphCall(`${base}/${FACEBOOK_GRAPH_VERSION}`, 'OAuth', request, fetchImpl);
  }

  /**
   * A reel's upload step: Meta fetches the video from `fileUrl` (the `file_url` header, no body).
   * The address is built from FACEBOOK_RUPLOAD_URL and the video id, never taken from the start
   * answer's `upload_url`: the Page token goes only to a host we configured.
   */
  function uploadReelFromUrl(input: {
    videoId: string;
    fileUrl: string;
    accessToken: string;
    signal: AbortSignal;
  }): Promise<Response> {
    const url = new URL(`${hosts.ruploadUrl}/video-upload/${FACEBOOK_GRAPH_VERSION}/${input.videoId}`);
    return networkFetch(
      url,
      {
        method: 'POST',
        headers: { Authorization: `OAuth ${input.accessToken}`, file_url: input.fileUrl },
        signal: input.signal,
      },
      fetchImpl,
    );
  }

  return Object.assign(call, { uploadReelFromUrl });
}

export type FacebookApi = ReturnType<typeof makeFacebookApi>;
