import type { components, operations, paths } from './openapi.js';

/** The generated description of every path, operation and schema (src/openapi.d.ts). */
export type { components, operations, paths };

export type Schemas = components['schemas'];
export type Post = Schemas['Post'];
export type PostStatus = Post['status'];
export type CreatedPost = Schemas['CreatedPost'];
export type Media = Schemas['Media'];
export type UploadUrl = Schemas['UploadUrl'];
export type ErrorEnvelope = Schemas['Error'];
export type RuleViolation = NonNullable<ErrorEnvelope['errors']>[number];

type JsonBody<Operation extends keyof operations> = operations[Operation]['requestBody'] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

/** The body of POST /v1/workspaces/{workspace_id}/posts. */
export type CreatePostBody = JsonBody<'createPost'>;

/** The statuses the service answers errors with (the interface's table, 405, 413 and 415 included). */
type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

type JsonContent<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
/** An error response pins `error` to the codes it may carry (an enum in the document). */
type CodeOf<Body> = Body extends { error?: infer Code } ? Extract<Code, string> : never;

/** The error codes one operation may answer, from its responses in the document. */
export type ErrorCodeOf<Operation extends keyof operations> = CodeOf<
  JsonContent<
    operations[Operation]['responses'][Extract<keyof operations[Operation]['responses'], ErrorStatus>]
  >
>;

type CodesOfResponses<Responses> = [Responses] extends [never]
  ? never
  : { [Name in keyof Responses]: CodeOf<JsonContent<Responses[Name]>> }[keyof Responses];
/** Codes of the document's shared responses (components.responses), e.g. 405 method_not_allowed. */
type SharedResponseCode = CodesOfResponses<components['responses']>;

/**
 * Every error code the document lists, as a union: a switch over it can be exhaustive, and a code
 * added to or removed from the document changes this type at the next `npm run client:generate`.
 */
export type ErrorCode =
  | { [Operation in keyof operations]: ErrorCodeOf<Operation> }[keyof operations]
  | SharedResponseCode;
