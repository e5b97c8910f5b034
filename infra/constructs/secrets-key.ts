import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * The KMS key for what the service keeps secret in its tables: the webhooks' signing secrets (the
 * create-webhook function may Encrypt and the webhook dispatcher Decrypt, both only for the purpose
 * `webhook-signing-secret`) and, with the real networks, their OAuth tokens.
 * Yearly automatic rotation; retained when the stack goes, since without it those ciphertexts
 * cannot be read again.
 *
 * The rule for every use of this key: each ciphertext is bound, by its KMS encryption context, to
 * the record it belongs to: `{ tenantId, workspaceId, purpose, recordId }` (the account id for a
 * token, the webhook id for a secret). Decrypt is called with the same context, built from the record being
 * read, so a ciphertext copied onto another tenant's, workspace's or record's item does not decrypt,
 * and grants may be narrowed with `kms:EncryptionContext:tenantId` conditions. CloudTrail logs the
 * context of every call, so each decryption is attributable to its tenant.
 */
export class SecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: `Social publishing (${props.stage}): OAuth tokens and webhook secrets`,
      enableKeyRotation: true,
      pendingWindow: Duration.days(30),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
