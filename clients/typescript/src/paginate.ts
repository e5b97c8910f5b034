import { unwrap } from './unwrap.js';

/** One page of a list operation: its items, and the cursor of the next page (null on the last). */
export interface Page<Item> {
  data: Item[];
  nextCursor: string | null;
}

/** What a page fetcher may answer: openapi-fetch's `{ data, error, response }`, or the page itself. */
export type PageResult<Item> = Page<Item> | { data?: Page<Item>; error?: unknown; response: Response };

/**
 * Reads one page. `cursor` is `undefined` for the first page and the previous page's
 * `nextCursor` after it: the type of the `cursor` query parameter, so it goes straight into
 * `query: { cursor }` (the service's `nextCursor` is `string | null`; null ends the walk instead).
 */
export type PageFetcher<Item> = (cursor: string | undefined) => Promise<PageResult<Item>>;

const isFetchResult = <Item>(
  result: PageResult<Item>,
): result is { data?: Page<Item>; error?: unknown; response: Response } =>
  'response' in result && result.response instanceof Response;

/**
 * Every page of a list operation, in order: reads the first page, then follows `nextCursor` until
 * it is null. A failed page throws (ApiError, UnexpectedResponseError) where it happens, after the
 * pages already yielded; a page may hold no items and still have a `nextCursor`.
 */
export async function* paginatePages<Item>(fetchPage: PageFetcher<Item>): AsyncGenerator<Page<Item>, void> {
  let cursor: string | undefined;
  do {
    const result = await fetchPage(cursor);
    const page = isFetchResult(result) ? unwrap(result) : result;
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * Every item of a list operation, page after page (see paginatePages):
 *
 *   for await (const post of paginate((cursor) =>
 *     client.api.GET('/v1/workspaces/{workspace_id}/posts', {
 *       params: { path: { workspace_id: workspaceId }, query: { status: 'scheduled', cursor } },
 *     }),
 *   )) console.log(post.id);
 *
 * Stop early with `break`: no further page is read.
 */
export async function* paginate<Item>(fetchPage: PageFetcher<Item>): AsyncGenerator<Item, void> {
  for await (const page of paginatePages(fetchPage)) yield* page.data;
}
