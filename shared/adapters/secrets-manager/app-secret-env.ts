import { NETWORK_APPS, type NetworkApp } from '../../ports/app-credentials.js';

/**
 * The variable that names an app's credentials secret in AWS: `X_APP_SECRET_ARN`,
 * `LINKEDIN_APP_SECRET_ARN`… The stack sets it, to the secret's ARN, on every function that calls
 * the networks (infra/constructs/network-apps.ts).
 */
export function appSecretEnvName(app: NetworkApp): `${NetworkApp}_APP_SECRET_ARN` {
  return `${app}_APP_SECRET_ARN`;
}

/** The secret of each app the environment names (an ARN or a name); empty when it names none. */
export function readAppSecretIds(
  env: NodeJS.ProcessEnv = process.env,
): Readonly<Partial<Record<NetworkApp, string>>> {
  const ids: Partial<Record<NetworkApp, string>> = {};
  for (const app of NETWORK_APPS) {
    const id = env[appSecretEnvName(app)]?.trim();
    if (id) ids[app] = id;
  }
  return ids;
}
