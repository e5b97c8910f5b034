import type { Context } from 'hono';
import { MAX_BYTES_BY_KIND, MIME_TYPES_BY_KIND } from '../../domain/media.js';
import type { DashboardEnv } from '../env.js';
import { type Html, html } from '../html.js';

/** The types the server-side fallback relays: images only, as its 4 MB guard suits them. */
const RELAYED_TYPES = MIME_TYPES_BY_KIND.image.join(',');

/** Every type the API takes: what the browser may send straight to storage. */
const DIRECT_TYPES = Object.values(MIME_TYPES_BY_KIND).flat().join(',');

const MB = 1024 * 1024;
const sizeLabel = (bytes: number) => (bytes >= 1024 * MB ? `${bytes / (1024 * MB)} GB` : `${bytes / MB} MB`);

/** What the hint says once the script takes over: the API's own limits, not the relay's. */
const DIRECT_HINT = `An image (JPEG, PNG, GIF, WebP, HEIC) up to ${sizeLabel(MAX_BYTES_BY_KIND.image)}, a video (MP4, QuickTime, WebM) up to ${sizeLabel(MAX_BYTES_BY_KIND.video)} or a PDF up to ${sizeLabel(MAX_BYTES_BY_KIND.document)}: your browser sends it straight to storage.`;

/**
 * The upload control: a file to the workspace's media, through the API's presigned URL.
 * Without script, the form posts the file to the dashboard, which relays it (4 MB at most, images).
 * With script (`data-direct-upload`, the dashboard's script), the browser asks `…/media/url` for a
 * presigned URL, PUTs the file straight to storage, confirms through `…/media/:id/confirm` and
 * ticks it in the composer: any type and size the API takes. `composePath`: the composer's page. Its progress is the `<progress>` and
 * the polite status; a refusal goes to the alert region.
 */
export function uploadForm(c: Context<DashboardEnv>, composePath: string): Html {
  return html`<section aria-labelledby="upload-heading"><h2 id="upload-heading">Upload media</h2><p>Upload first, then write the post: the file is added to the media below.</p><form method="post" action="${composePath}/media" enctype="multipart/form-data" aria-label="Upload media" data-direct-upload="${composePath}/media" data-direct-accept="${DIRECT_TYPES}" data-direct-hint="${DIRECT_HINT}"><input type="hidden" name="_csrf" value="${c.var.csrfToken}"><div class="field"><label for="field-file">File</label><p class="hint" id="field-file-hint">An image (JPEG, PNG, GIF, WebP, HEIC, at most 4 MB here; larger files and videos through the API's createUploadUrl).</p><input id="field-file" name="file" type="file" accept="${RELAYED_TYPES}" aria-describedby="field-file-hint" required></div><button type="submit" class="secondary">Upload</button> <progress id="upload-progress" max="100" value="0" aria-label="Upload progress" hidden></progress><p id="upload-status" class="hint" role="status"></p><div id="upload-alert" role="alert"></div></form></section>`;
}
