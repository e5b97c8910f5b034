import { startFakeNetworks } from './start.js';

/**
 * `npm run fake-networks`: the networks' fakes on loopback, until Ctrl-C. Prints the environment
 * lines that point a host at them (paste them before `npm start`, or use FAKE_NETWORKS=1 npm start,
 * which starts them inside the local host).
 */
async function main() {
  const fakes = await startFakeNetworks();
  console.log('Fake networks are running. Point a host at them with:\n');
  for (const [name, value] of Object.entries(fakes.env)) console.log(`export ${name}=${value}`);
  console.log('\nStop with Ctrl-C.');
  const stop = async () => {
    await fakes.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error('The fake networks failed to start:', error);
  process.exit(1);
});
