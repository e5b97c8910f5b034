/** `application/json` or any `application/<subtype>+json`, case-insensitive, whatever the parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

/** The media type of a Content-Type header, lower case, without parameters (`; charset=…`). */
export function mediaTypeOf(header: string): string {
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

export function isJsonContentType(header: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaTypeOf(header));
}

/** A header of an API Gateway event, whatever its case (HTTP APIs lower-case them; REST APIs do not). */
export function headerOf(headers: Readonly<Record<string, string | undefined>> | undefined, name: string) {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
