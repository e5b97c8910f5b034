/**
 * Finding a running LocalStack: the `npm run test:localstack` wrapper asks before it starts
 * vitest, and the suite's global setup asks again (for the services it offers).
 */

/** Where LocalStack listens unless LOCALSTACK_ENDPOINT says otherwise (its edge port). */
export const DEFAULT_LOCALSTACK_ENDPOINT = 'http://localhost:4566';

export function localstackEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  return (env.LOCALSTACK_ENDPOINT || DEFAULT_LOCALSTACK_ENDPOINT).replace(/\/+$/, '');
}

export type LocalStackProbe =
  | {
      reachable: true;
      endpoint: string;
      version?: string;
      /** Service name → state, as /_localstack/health reports it (`available`, `running`, …). */
      services: Record<string, string>;
    }
  | { reachable: false; endpoint: string; reason: string };

/** One quick GET of /_localstack/health; a LocalStack that does not answer in time counts as absent. */
export async function probeLocalStack(endpoint: string, timeoutMs = 2000): Promise<LocalStackProbe> {
  const url = `${endpoint}/_localstack/health`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { reachable: false, endpoint, reason: `GET ${url} answered ${response.status}` };
    const health = (await response.json()) as { services?: Record<string, string>; version?: string };
    return {
      reachable: true,
      endpoint,
      ...(health.version && { version: health.version }),
      services: health.services ?? {},
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = cause instanceof Error ? cause.message || cause.name : String(cause);
    return { reachable: false, endpoint, reason };
  }
}

/** Whether the health report offers a service (names as LocalStack spells them: dynamodb, sqs, s3, scheduler). */
export function offers(services: Record<string, string>, service: string): boolean {
  return services[service] === 'available' || services[service] === 'running';
}
