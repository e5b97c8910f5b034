import recorded from './openapi-examples.json' with { type: 'json' };

/** Real bodies of one operation, recorded from the service by scripts/record-openapi-examples.ts. */
export interface OperationExamples {
  /** The JSON request body, for operations that take one. */
  readonly request?: unknown;
  /** Response bodies by status ("201", "409", "422"…): the success and the errors worth showing. */
  readonly responses: Readonly<Record<string, unknown>>;
  /**
   * More error bodies under a status already in `responses`, each with another `error` code
   * (createPost: 422 VALIDATION_FAILED in responses, 422 idempotency_key_reused here).
   */
  readonly otherErrors?: Readonly<Record<string, readonly unknown[]>>;
}

/** Recorded examples by operationId; an operation missing here has none yet. */
export const operationExamples: Readonly<Record<string, OperationExamples>> = recorded;
