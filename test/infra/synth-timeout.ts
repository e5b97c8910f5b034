/**
 * A test that synthesizes the whole stack (some 250 resources, a function per operation) takes tens
 * of seconds on a busy 2-core machine: more than the suite's default per test.
 */
export const SYNTH_TIMEOUT_MS = 120_000;
