import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../../../shared/domain/address-ranges.js';
import type { MediaFetcher } from '../../../shared/ports/media-fetcher.js';
import { makeMediaFetcher } from '../../../shared/runtime/media-fetcher.js';
import { makeSelfSigned } from '../../support/self-signed.js';

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(60, 7)]);

export interface MediaSource {
  /** An HTTPS URL on a "public" name that the host's fetcher reaches on this loopback server. */
  url: string;
  fetchMedia: MediaFetcher;
  stop(): Promise<void>;
}

/**
 * A public image for importMedia without leaving the machine: a loopback HTTPS server behind the
 * production fetcher, whose resolver maps media.test to it and which trusts its certificate
 * (as test/e2e/media.test.ts does).
 */
export async function startMediaSource(): Promise<MediaSource> {
  const tls = makeSelfSigned(['media.test']);
  const server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    if (request.url !== '/cat.png') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
    response.end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fetchMedia = makeMediaFetcher({
    lookup: async (name) => {
      if (name === 'media.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`no such name ${name}`), { code: 'ENOTFOUND' });
    },
    ca: tls.cert,
    request: (options) => httpsRequest({ ...options, port }),
    isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
    timeoutMs: 5000,
  });
  return {
    url: 'https://media.test/cat.png',
    fetchMedia,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
