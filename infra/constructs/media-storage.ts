import { Duration, Lazy, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { MEDIA_UPLOAD_CORS } from '../media-upload-cors.js';

/**
 * Every object the service stores lives under `t/<tenantId>/…` (docs/media.md, "Storage layout"):
 * uploads and imports at `t/<ten>/w/<wks>/m/<med>`, URL media fetched at delivery at
 * `t/<ten>/w/<wks>/p/<pst>/<n>`. Grants name this prefix, never the whole bucket.
 */
export const TENANT_OBJECTS_PREFIX = 't/';

/** What a function may do to tenant objects: nothing else of S3 is granted to any function. */
export type MediaObjectAction = 's3:PutObject' | 's3:GetObject' | 's3:DeleteObject';

export interface MediaStorageProps {
  /** Origins allowed to PUT to presigned upload URLs from a browser (`*`: any). */
  corsOrigins: readonly string[];
}

/**
 * The media bucket: customer data, so private (all public access blocked, bucket owner owns every
 * object, ACLs off), encrypted (S3-managed keys), TLS 1.2+ only, retained when the stack goes, with
 * server access logs in a bucket of their own. Not versioned on purpose: deleting media through the
 * API must really delete it. Incomplete multipart uploads are cleaned up after a day.
 */
export class MediaStorage extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  /** The CORS rule's origins: the context's, then the dashboard's own (`allowBrowserUploadsFrom`). */
  private readonly uploadOrigins: string[];

  constructor(scope: Construct, id: string, props: MediaStorageProps) {
    super(scope, id);
    this.uploadOrigins = [...props.corsOrigins];

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
      // An audit trail of who read and wrote customer data: kept when the stack goes.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: false,
      // Browsers PUT the bytes straight to a presigned URL (MEDIA_UPLOAD_CORS). The origins are
      // read at synthesis, so the dashboard's origin, known once the API exists, is among them.
      cors: [
        {
          allowedMethods: MEDIA_UPLOAD_CORS.allowedMethods.map((method) => s3.HttpMethods[method]),
          allowedOrigins: Lazy.list({ produce: () => this.uploadOrigins }),
          allowedHeaders: [...MEDIA_UPLOAD_CORS.allowedHeaders],
          exposedHeaders: [...MEDIA_UPLOAD_CORS.exposedHeaders],
          maxAge: MEDIA_UPLOAD_CORS.maxAgeSeconds,
        },
      ],
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'media-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /**
   * Lets a browser at `origin` PUT to presigned URLs: the dashboard's own origin (its composer
   * uploads from the browser straight to the bucket), whatever the context's `corsOrigins` say.
   * Nothing to add when they already allow any origin.
   */
  allowBrowserUploadsFrom(origin: string): void {
    if (this.uploadOrigins.includes('*') || this.uploadOrigins.includes(origin)) return;
    this.uploadOrigins.push(origin);
  }

  /** `arn:…:<bucket>/t/*`: every tenant's objects, and nothing else in the bucket. */
  get tenantObjectsArn(): string {
    return this.bucket.arnForObjects(`${TENANT_OBJECTS_PREFIX}*`);
  }

  /** Object-level actions on tenant objects (no bucket-level action, no other prefix). */
  grantTenantObjects(grantee: iam.IGrantable, actions: readonly MediaObjectAction[]): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: [...actions],
      resourceArns: [this.tenantObjectsArn],
    });
  }

  /**
   * Calls `fn` for every object created under `t/`. S3 filters take a prefix and a suffix only, so
   * URL media stored at delivery (`…/p/…`) arrive too; the handler ignores keys that are not uploads.
   */
  notifyOnObjectCreated(fn: lambda.IFunction): void {
    this.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new LambdaDestination(fn), {
      prefix: TENANT_OBJECTS_PREFIX,
    });
  }
}
