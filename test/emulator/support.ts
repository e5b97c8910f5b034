import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** Emulators take any key pair; fixed ones keep the SDK from reading the machine's. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' } as const;

export function emulator() {
  return inject('emulator');
}

/**
 * Points the SDK's standard variables at the emulator, for the clients our factories build with no
 * endpoint (as in AWS: Secrets Manager, SQS, Scheduler): AWS_ENDPOINT_URL is read by every client
 * the SDK makes. Called by each test file before it builds a client.
 */
export function useEmulatorEnvironment(): void {
  const { endpoint, region } = emulator();
  process.env.AWS_ENDPOINT_URL = endpoint;
  process.env.AWS_REGION = region;
  process.env.AWS_ACCESS_KEY_ID = EMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = EMULATOR_CREDENTIALS.secretAccessKey;
}

/** Config for a client the test itself makes (to arrange or to check what an adapter did). */
export function clientConfig() {
  const { endpoint, region } = emulator();
  return { region, endpoint, credentials: { ...EMULATOR_CREDENTIALS } };
}

/** A name no other run uses: resources of one run never meet another's (LocalStack keeps state). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}
