import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './powertools-logger.js';
import type { Tracing } from './tracer.js';

/**
 * The only module that imports Powertools Tracer (and so the X-Ray SDK); loaded by
 * shared/runtime/with-tracing.ts, only in Lambda. Constructing the Tracer also makes every
 * `fetch` (undici) and `http`/`https` request a subsegment of the invocation's trace.
 */
export function makePowertoolsTracing(): Tracing {
  const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME });
  return {
    captureAwsClient: (client) => tracer.captureAWSv3Client(client),
    inSubsegment: (name, annotations, fn) =>
      // The X-Ray SDK runs `fn` in a context of its own (cls-hooked), so the records of a batch,
      // handled at once, each get their own subsegment, and the fetches inside it nest under it.
      tracer.provider.captureAsyncFunc(name, async (subsegment) => {
        for (const [key, value] of Object.entries(annotations)) subsegment?.addAnnotation(key, value);
        try {
          return await fn();
        } catch (error) {
          if (error instanceof Error) subsegment?.addError(error);
          throw error;
        } finally {
          subsegment?.close();
        }
      }) as ReturnType<typeof fn>,
  };
}
