import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';

export interface S3Local {
  endpoint: string;
  stop(): Promise<void>;
}

/** s3rver on loopback, storing objects under `directory`, with the service's buckets in place. */
export async function startS3Local(options: {
  directory: string;
  port?: number;
  buckets: string[];
}): Promise<S3Local> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    // Path-style URLs on 127.0.0.1: no wildcard DNS needed for bucket subdomains.
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  const address = await server.run();
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: () => server.close() };
}
