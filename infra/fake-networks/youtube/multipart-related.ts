/** One part of a multipart/related body: its Content-Type and its bytes. */
export interface RelatedPart {
  contentType: string;
  body: Buffer;
}

/**
 * A Google media upload's `uploadType=multipart` body (multipart/related, RFC 2387): the metadata
 * part, then the media part. Undefined when the Content-Type names no boundary or the body does not
 * hold one delimited part, as Google answers such a body 400.
 */
export function readRelatedParts(contentType: string | undefined, body: Buffer): RelatedPart[] | undefined {
  const match = /^multipart\/related\s*;.*boundary="?([^";]+)"?/i.exec(contentType ?? '');
  const boundary = match?.[1];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: RelatedPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    // The part runs from after the delimiter's line break to the line break before the next one.
    const raw = body.subarray(start, next);
    const content = raw.subarray(raw.indexOf('\r\n') === 0 ? 2 : 0);
    const headerEnd = content.indexOf('\r\n\r\n');
    if (headerEnd < 0) return undefined;
    const headers = content.subarray(0, headerEnd).toString('utf8');
    let partBody = content.subarray(headerEnd + 4);
    if (partBody.subarray(-2).toString() === '\r\n') partBody = partBody.subarray(0, -2);
    const type = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '';
    parts.push({ contentType: type, body: partBody });
    at = next;
  }
  return parts.length > 0 ? parts : undefined;
}
