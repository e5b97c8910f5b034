import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PutBucketCorsCommand } from '@aws-sdk/client-s3';
import type { S3Event, S3EventRecord } from 'aws-lambda';
import S3rver, { type S3rverEvent, type S3rverMiddleware } from 's3rver';
import { LOCAL_S3_CREDENTIALS, makeS3Client } from '../../shared/adapters/s3/client.js';
import { type Logger, silentLogger } from '../../shared/ports/logger.js';
import { MEDIA_UPLOAD_CORS } from '../media-upload-cors.js';

export interface S3Local {
  endpoint: string;
  /**
   * Lets browsers at `origins` PUT to presigned URLs of every bucket: the media bucket's CORS rule,
   * as in AWS (MEDIA_UPLOAD_CORS), set through S3's own PutBucketCors. The host calls it once it
   * listens, when the dashboard's origin is known; until then a browser's PUT is refused.
   */
  allowBrowserUploadsFrom(origins: readonly string[]): Promise<void>;
  /** Stops the server, then waits for object-created handlers still running. */
  stop(): Promise<void>;
}

export interface S3LocalOptions {
  directory: string;
  port?: number;
  buckets: string[];
  /**
   * Called with the S3Event AWS would send a Lambda after each object is created (PUT, POST,
   * copy). Like S3's own notifications it runs after the upload has been answered: its failure
   * never turns into an error for the uploader.
   */
  onObjectCreated?: (event: S3Event) => Promise<void>;
  /** Where a failing onObjectCreated is reported; an error line on `logger` by default. */
  onHookError?: (error: unknown, event: S3Event) => void;
  /** Where the default onHookError logs; nowhere by default. */
  logger?: Logger;
  /**
   * Check requests as S3 does before s3rver sees them (see s3Checks): presigned signatures with
   * their signed headers, no anonymous access, and only whole bodies stored. On by default; off
   * only to observe s3rver's own behaviour.
   */
  s3Checks?: boolean;
  /** Told of every request (its method and path), refused ones too: benchmarks count S3 requests. */
  onRequest?: (method: string, path: string) => void;
}

/** s3rver on loopback, storing objects under `directory`, with the service's buckets in place. */
export async function startS3Local(options: S3LocalOptions): Promise<S3Local> {
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
  if (options.s3Checks !== false) {
    // Koa composes its middleware list when run() starts listening: this one goes before s3rver's.
    server.middleware.unshift(
      s3Checks(new Map([[LOCAL_S3_CREDENTIALS.accessKeyId, LOCAL_S3_CREDENTIALS.secretAccessKey]])),
    );
  }

  const { onRequest } = options;
  if (onRequest) {
    // Ahead of the checks: S3 counts (and bills) a refused request too.
    server.middleware.unshift(async (ctx, next) => {
      onRequest(ctx.method, ctx.req.url ?? '/');
      return next();
    });
  }

  const running = new Set<Promise<void>>();
  const { onObjectCreated } = options;
  if (onObjectCreated) {
    const logger = options.logger ?? silentLogger;
    const report =
      options.onHookError ??
      ((error, event) =>
        logger.error('s3 local: object-created handler failed', {
          objectKey: event.Records[0]?.s3.object.key,
          error,
        }));
    server.on('event', (raw) => {
      const event = toObjectCreatedEvent(raw);
      if (!event) return;
      const run = Promise.resolve()
        .then(() => onObjectCreated(event))
        .catch((error: unknown) => report(error, event))
        .finally(() => running.delete(run));
      running.add(run);
    });
  }

  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    allowBrowserUploadsFrom: async (origins) => {
      // s3rver checks the access key only; the region is any.
      const client = makeS3Client({ region: 'us-east-1', endpoint });
      try {
        for (const bucket of options.buckets) {
          await client.send(
            new PutBucketCorsCommand({
              Bucket: bucket,
              CORSConfiguration: {
                CORSRules: [
                  {
                    AllowedOrigins: [...origins],
                    AllowedMethods: [...MEDIA_UPLOAD_CORS.allowedMethods],
                    AllowedHeaders: [...MEDIA_UPLOAD_CORS.allowedHeaders],
                    ExposeHeaders: [...MEDIA_UPLOAD_CORS.exposedHeaders],
                    MaxAgeSeconds: MEDIA_UPLOAD_CORS.maxAgeSeconds,
                  },
                ],
              },
            }),
          );
        }
      } finally {
        client.destroy();
      }
    },
    stop: async () => {
      await server.close();
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * s3rver's notification as the S3Event AWS delivers: only ObjectCreated:* records, the key
 * URL-encoded the way S3 encodes it, a well-formed bucket ARN. Undefined when nothing was created.
 */
export function toObjectCreatedEvent(raw: S3rverEvent): S3Event | undefined {
  const records: S3EventRecord[] = raw.Records.filter((record) =>
    record.eventName.startsWith('ObjectCreated:'),
  ).map((record) => ({
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: record.awsRegion,
    eventTime: record.eventTime,
    eventName: record.eventName,
    userIdentity: { principalId: record.userIdentity.principalId },
    requestParameters: { sourceIPAddress: record.requestParameters.sourceIPAddress },
    responseElements: { ...record.responseElements },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: record.s3.configurationId,
      bucket: {
        name: record.s3.bucket.name,
        ownerIdentity: { principalId: record.s3.bucket.ownerIdentity.principalId },
        arn: `arn:aws:s3:::${record.s3.bucket.name}`,
      },
      object: {
        key: encodeEventKey(record.s3.object.key),
        size: record.s3.object.size ?? 0,
        eTag: record.s3.object.eTag ?? '',
        sequencer: record.s3.object.sequencer,
      },
    },
  }));
  return records.length > 0 ? { Records: records } : undefined;
}

/**
 * S3 notifications carry the key form-URL-encoded, slashes kept: `a b+c.jpg` → `a+b%2Bc.jpg`.
 * A consumer decodes with `decodeURIComponent(key.replace(/\+/g, ' '))`.
 */
export function encodeEventKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment)
        .replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
        .replace(/%20/g, '+'),
    )
    .join('/');
}

interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: Record<string, string>;
}

/**
 * What S3 checks and s3rver 3.7.1 does not, put in front of it:
 * - Presigned SigV4 signatures. s3rver only requires the query parameters, a known access key and
 *   an unexpired X-Amz-Date + X-Amz-Expires ("Signature version 4 calculation is unimplemented",
 *   lib/middleware/authentication.js). Here the canonical request is rebuilt from what arrived
 *   (method, path, query, the signed headers' values) and its HMAC must equal X-Amz-Signature, so
 *   a PUT with another Content-Type or Content-Length than was signed is refused (403
 *   SignatureDoesNotMatch), as are unsigned x-amz-* headers. Payload hashes are not checked
 *   (presigned uploads are UNSIGNED-PAYLOAD); expiry stays s3rver's check.
 * - Anonymous requests: s3rver serves them; a private bucket answers 403 AccessDenied.
 * - Whole bodies: s3rver streams a PUT straight into the object's file, so a dropped connection
 *   leaves a truncated object there (without its Content-Type). Here the body is received in full
 *   (exactly Content-Length bytes) before s3rver sees it; an interrupted upload stores nothing.
 * Requests signed in the Authorization header (the SDK's own calls) keep s3rver's check (the
 * access key only).
 */
export function s3Checks(secrets: ReadonlyMap<string, string>): S3rverMiddleware {
  return async (ctx, next) => {
    const refusal = checkRequest(ctx.req, secrets);
    if (refusal) {
      ctx.status = refusal.status;
      ctx.type = 'application/xml';
      ctx.body = errorXml(refusal);
      return;
    }
    if (ctx.method !== 'PUT' || !isObjectPath(ctx.req.url ?? '/')) return next();
    const spool = await mkdtemp(join(tmpdir(), 's3-local-upload-'));
    try {
      const file = join(spool, 'body');
      try {
        await pipeline(ctx.req, createWriteStream(file));
      } catch {
        // The uploader went away mid-body: like S3, keep nothing (there is no one left to answer).
        return;
      }
      // s3rver reads the body from ctx.req (headers come from ctx.request, untouched).
      ctx.req = createReadStream(file) as unknown as IncomingMessage;
      await next();
    } finally {
      await rm(spool, { recursive: true, force: true });
    }
  };
}

/** `/<bucket>/<key...>`, the paths of object operations (path-style). */
function isObjectPath(rawUrl: string): boolean {
  const path = rawUrl.split('?', 1)[0] ?? '';
  return /^\/[^/]+\/./.test(path);
}

function checkRequest(req: IncomingMessage, secrets: ReadonlyMap<string, string>): Refusal | undefined {
  const method = req.method ?? 'GET';
  // CORS preflights carry no credentials, in S3 too.
  if (method === 'OPTIONS') return undefined;
  const rawUrl = req.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const params = parseQuery(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1));
  if (!params) return { status: 400, code: 'InvalidArgument', message: 'Malformed query string.' };
  const param = (name: string) => params.find(([key]) => key === name)?.[1];

  if (param('X-Amz-Algorithm') === undefined) {
    // Header-signed (SDK) and V2 query-signed requests are left to s3rver.
    if (req.headers.authorization !== undefined || param('Signature') !== undefined) return undefined;
    return { status: 403, code: 'AccessDenied', message: 'Access Denied' };
  }
  const credential = param('X-Amz-Credential');
  const amzDate = param('X-Amz-Date');
  const signedHeaders = param('X-Amz-SignedHeaders');
  const signature = param('X-Amz-Signature');
  // Missing or foreign parameters and unknown keys: s3rver answers those itself.
  if (
    param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' ||
    !credential ||
    !amzDate ||
    !signedHeaders ||
    !signature
  ) {
    return undefined;
  }
  const [accessKeyId = '', scopeDate = '', region = '', service = '', terminator = ''] =
    credential.split('/');
  const secret = secrets.get(accessKeyId);
  if (secret === undefined) return undefined;

  const signedNames = signedHeaders.split(';');
  const unsigned = Object.keys(req.headers).filter(
    (name) => name.startsWith('x-amz-') && !signedNames.includes(name),
  );
  if (unsigned.length > 0) {
    return {
      status: 403,
      code: 'AccessDenied',
      message: 'There were headers present in the request which were not signed',
      details: { HeadersNotSigned: unsigned.join(', ') },
    };
  }

  const canonicalUri = rawPath
    .split('/')
    .map((segment) => uriEscape(safeDecode(segment) ?? segment))
    .join('/');
  const canonicalQuery = params
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [uriEscape(key), uriEscape(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = signedNames.map((name) => `${name}:${headerValue(req, name)}\n`).join('');
  const canonicalRequest = [
    method,
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = [scopeDate, region, service, terminator].join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, scopeDate);
  for (const part of [region, service, terminator]) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const provided = Buffer.from(signature);
  if (
    terminator === 'aws4_request' &&
    amzDate.startsWith(scopeDate) &&
    expected.length === provided.length &&
    timingSafeEqual(expected, provided)
  ) {
    return undefined;
  }
  return {
    status: 403,
    code: 'SignatureDoesNotMatch',
    message:
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    details: { AWSAccessKeyId: accessKeyId, StringToSign: stringToSign, CanonicalRequest: canonicalRequest },
  };
}

/** Decoded name/value pairs in arrival order; undefined when an escape is malformed. */
function parseQuery(query: string): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const key = safeDecode(equals === -1 ? part : part.slice(0, equals));
    const value = safeDecode(equals === -1 ? '' : part.slice(equals + 1));
    if (key === undefined || value === undefined) return undefined;
    pairs.push([key, value]);
  }
  return pairs;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** SigV4's URI encoding: RFC 3986 unreserved characters stay, everything else is %XX. */
function uriEscape(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/\s+/g, ' ');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function errorXml(refusal: Refusal): string {
  const escapeXml = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const details = Object.entries(refusal.details ?? {})
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${escapeXml(refusal.message)}</Message>${details}</Error>`;
}
