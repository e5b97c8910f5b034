import { errorFromResponse } from './errors.js';

interface FetchResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** openapi-fetch's answer as a value, or the thrown ApiError / UnexpectedResponseError. */
export function unwrap<Data>(result: FetchResult<Data>): Data {
  if (!result.response.ok) throw errorFromResponse(result.response, result.error);
  if (result.data === undefined) {
    throw errorFromResponse(result.response, 'The response has no body where the document promises one.');
  }
  return result.data;
}
