import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { isMoto, type MotoServer, startMotoServer } from './moto-server.js';

export interface EmulatorContext {
  /** Where every AWS client of the suite sends its requests. */
  endpoint: string;
  region: string;
  /** moto (started here, or found at AWS_ENDPOINT_URL); false for another emulator (LocalStack). */
  moto: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    emulator: EmulatorContext;
  }
}

let server: MotoServer | undefined;

/**
 * The AWS emulator of `npm run test:emulator`: the one at AWS_ENDPOINT_URL (the SDK's standard
 * variable: LocalStack, or a moto started elsewhere) when it is set, else a moto server started
 * here on loopback and stopped after the run.
 */
export async function setup(project: TestProject) {
  const given = process.env.AWS_ENDPOINT_URL?.replace(/\/+$/, '');
  let endpoint: string;
  if (given) {
    endpoint = given;
  } else {
    const started = Date.now();
    server = await startMotoServer();
    endpoint = server.endpoint;
    console.log(`moto's server at ${endpoint} (started in ${Date.now() - started} ms)`);
  }
  const moto = await isMoto(endpoint);
  if (given) console.log(`AWS emulator at ${endpoint} (AWS_ENDPOINT_URL)${moto ? ': moto' : ''}`);
  project.provide('emulator', {
    endpoint,
    region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
    moto,
  });
}

export async function teardown() {
  await server?.stop();
}
