import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Built once per module (cold start), never per request. */
export function makeSecretsManagerClient(connection: { region: string }): SecretsManagerClient {
  return new SecretsManagerClient({ region: connection.region });
}
