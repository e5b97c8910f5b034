import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

const { reconcile } = deliveryFromEnv();

/** Every minute: recover expired leases and re-drive lost messages; the report goes to the log. */
export const handler = async () => {
  const report = await reconcile();
  console.log(JSON.stringify({ level: 'info', msg: 'reconciled', ...report }));
  return report;
};
