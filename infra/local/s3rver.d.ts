// s3rver ships no type declarations; these cover the part the local host uses.
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  /** The part of Koa's context (s3rver is a Koa app) a middleware in front of s3rver's uses. */
  export interface S3rverContext {
    req: IncomingMessage;
    res: ServerResponse;
    method: string;
    status: number;
    type: string;
    body: unknown;
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void;

  /**
   * What s3rver emits as 'event' after it stores (Put, Post, Copy) or deletes an object
   * (lib/models/event.js): an S3 notification, with `key` decoded and `size`/`eTag` only on creation.
   */
  export interface S3rverEvent {
    Records: {
      eventVersion: string;
      eventSource: string;
      awsRegion: string;
      eventTime: string;
      eventName: string;
      userIdentity: { principalId: string };
      requestParameters: { sourceIPAddress: string };
      responseElements: { 'x-amz-request-id': string; 'x-amz-id-2': string };
      s3: {
        s3SchemaVersion: string;
        configurationId: string;
        bucket: { name: string; ownerIdentity: { principalId: string }; arn: string };
        object: { key: string; sequencer: string; size?: number; eTag?: string };
      };
    }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list: composed when the server starts listening (in run()). */
    middleware: S3rverMiddleware[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: S3rverEvent) => void): this;
  }
}
