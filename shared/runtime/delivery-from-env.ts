import { loadConfig } from './config.js';
import { loadDeliveryConfig } from './delivery-config.js';
import { makeAwsDeliveryPorts, makeDelivery } from './make-delivery.js';
import { makeDeps } from './make-deps.js';

/** The delivery handlers of a Lambda, configured from its environment (read once, at cold start). */
export function deliveryFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env);
  const deps = makeDeps(config);
  return makeDelivery(deps, makeAwsDeliveryPorts(config, loadDeliveryConfig(env), deps.networks));
}
