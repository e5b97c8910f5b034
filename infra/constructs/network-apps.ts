import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { appSecretEnvName } from '../../shared/adapters/secrets-manager/app-secret-env.js';
import {
  NETWORK_APPS,
  type NetworkApp,
  type NetworkEndpointName,
} from '../../shared/runtime/network-config.js';

/**
 * What each secret holds until the operator puts the app's credentials in: the shape to fill in,
 * with empty strings, which the functions read as "not configured" (connect answers 409
 * network_not_configured). Never change it: CloudFormation writes a secret's value again only when
 * this property changes, and it would then overwrite every deployment's real credentials.
 */
export const APP_SECRET_PLACEHOLDER = JSON.stringify({ clientId: '', clientSecret: '' });

/** `<prefix>x`, `<prefix>linkedin`, `<prefix>linkedin-community`…: the secret name of an app (docs/deploy.md). */
export function appSecretName(prefix: string, app: NetworkApp): string {
  return `${prefix}${app.toLowerCase().replaceAll('_', '-')}`;
}

/** `X`, `Linkedin`, `LinkedinCommunity`…: an app in construct ids and output names. */
export function appIdPart(app: NetworkApp): string {
  return app
    .split('_')
    .map((word) => `${word.charAt(0)}${word.slice(1).toLowerCase()}`)
    .join('');
}

export interface NetworkAppsProps {
  /** Secret names are this plus the app in lower case. */
  secretsPrefix: string;
  /** Network addresses other than the real hosts (CDK context); the code's defaults otherwise. */
  endpoints?: Readonly<Partial<Record<NetworkEndpointName, string>>>;
}

/**
 * The networks' developer apps: one Secrets Manager secret per app (X, LinkedIn's member app and
 * its Community Management app, Instagram, TikTok, Google for YouTube) holding its `{clientId, clientSecret}`, which the operator fills in
 * (docs/deploy.md, section 4), and what a function that calls the networks is told: each secret's
 * ARN (`<APP>_APP_SECRET_ARN`) and the endpoints given as context.
 *
 * The secrets are retained when the stack goes, like the tables whose tokens were issued to these
 * apps: a refresh needs the same client. They use Secrets Manager's own key (aws/secretsmanager),
 * so GetSecretValue on them is all a reader needs.
 */
export class NetworkApps extends Construct {
  readonly secrets: ReadonlyMap<NetworkApp, secretsmanager.Secret>;
  private readonly endpoints: Readonly<Partial<Record<NetworkEndpointName, string>>>;

  constructor(scope: Construct, id: string, props: NetworkAppsProps) {
    super(scope, id);
    this.endpoints = props.endpoints ?? {};
    const secrets = new Map<NetworkApp, secretsmanager.Secret>();
    for (const app of NETWORK_APPS) {
      const secret = new secretsmanager.Secret(this, `${appIdPart(app)}App`, {
        secretName: appSecretName(props.secretsPrefix, app),
        description: `OAuth client of the ${app} app: {"clientId": "...", "clientSecret": "..."} (docs/deploy.md)`,
        secretStringValue: SecretValue.unsafePlainText(APP_SECRET_PLACEHOLDER),
        removalPolicy: RemovalPolicy.RETAIN,
      });
      secrets.set(app, secret);
    }
    this.secrets = secrets;
  }

  /** The environment of a function that calls the networks: the secrets' ARNs and the endpoints. */
  get environment(): Record<string, string> {
    return {
      ...this.endpoints,
      ...Object.fromEntries(
        [...this.secrets].map(([app, secret]) => [appSecretEnvName(app), secret.secretArn]),
      ),
    };
  }

  /** secretsmanager:GetSecretValue on these secrets and nothing else (no Describe, no List). */
  grantRead(grantee: iam.IGrantable): void {
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['secretsmanager:GetSecretValue'],
      resourceArns: [...this.secrets.values()].map((secret) => secret.secretArn),
    });
  }
}
