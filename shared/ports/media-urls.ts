/**
 * Short-lived read URLs of stored media, for a network that fetches the media itself rather than
 * taking an upload (the photo network: Instagram downloads `image_url` / `video_url`). The bucket
 * stays private: each URL is a presigned GET of one object that expires soon after the network
 * has had the time it needs to fetch it.
 */
export interface MediaUrls {
  /** A URL that reads `objectKey` for `expiresInSeconds`; nothing else can be read with it. */
  presignGet(objectKey: string, expiresInSeconds: number, signal?: AbortSignal): Promise<string>;
}
