import { registerTracing, tracingWanted } from '../adapters/observability/tracer.js';

/**
 * Imported, before anything else of ours, by the entries of the functions that call networks or fan
 * out (functions/: delivery worker, webhook dispatcher, media importer, token refresher, outbox,
 * webhook fan-out, reconciler): in Lambda, Powertools Tracer is loaded and registered before their
 * dependencies are made, so each AWS client call and each network call is a subsegment. An entry
 * that does not import this file has no X-Ray SDK in its bundle at all (docs/operating.md "Traces").
 * The import is dynamic so the local host and the tests, which never trace, never load it either.
 */
if (tracingWanted(process.env)) {
  const { makePowertoolsTracing } = await import('../adapters/observability/powertools-tracing.js');
  registerTracing(makePowertoolsTracing());
}
