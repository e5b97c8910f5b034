import type { ForecastAccount } from '../calendar/forecast.js';
import { parseAt } from '../calendar/local-time.js';
import type { CalendarFile, ServiceState } from '../calendar/model.js';
import type { Validation } from '../calendar/plan-report.js';
import type { SocialPublishingClient } from '../client.js';
import { paginate } from '../paginate.js';
import type { CreatePostBody, Post } from '../types.js';
import { unwrap } from '../unwrap.js';

type ListQuery = {
  status?: Post['status'];
  accountId?: string;
  scheduledFrom?: string;
  scheduledTo?: string;
  externalIdPrefix?: string;
};

const DAY_MS = 86_400_000;
/** The service's largest page: a calendar of thousands of posts is read in a few requests. */
const PAGE = 100;

/** The calendar's view of the service, through the public API only (one workspace, one key). */
export function makeCalendarService(client: SocialPublishingClient, workspaceId: string) {
  const path = { workspace_id: workspaceId };

  const listPosts = async (query: ListQuery): Promise<Post[]> => {
    const posts: Post[] = [];
    for await (const post of paginate((cursor) =>
      client.api.GET('/v1/workspaces/{workspace_id}/posts', {
        params: { path, query: { ...query, limit: PAGE, ...(cursor && { cursor }) } },
      }),
    ))
      posts.push(post);
    return posts;
  };

  return {
    listPosts,

    /**
     * What the calendar is compared with: its posts (externalId prefix `<calendar>/`, any status),
     * the posts its entries name by id, and the scheduled posts of its accounts it does not manage
     * over the horizon (their times are taken, and they count against the quota).
     */
    async readState(file: CalendarFile, now: Date): Promise<ServiceState> {
      const managed = await listPosts({ externalIdPrefix: `${file.calendar}/` });
      const managedIds = new Set(managed.map((post) => post.id));
      const boundIds = [...new Set(file.entries.flatMap((entry) => (entry.postId ? [entry.postId] : [])))];
      const bound = await Promise.all(boundIds.map((postId) => client.getPost(workspaceId, postId)));
      const boundIdSet = new Set(boundIds);
      const scheduledTo = stateUntil(file, now).toISOString();
      const others: Post[] = [];
      for (const accountId of accountsOf(file)) {
        const scheduled = await listPosts({
          status: 'scheduled',
          accountId,
          scheduledFrom: now.toISOString(),
          scheduledTo,
        });
        others.push(...scheduled.filter((post) => !managedIds.has(post.id) && !boundIdSet.has(post.id)));
      }
      return { managed, bound, others };
    },

    /** Each account's daily ceiling and today's use (getAccount's usage), for the forecast. */
    async readAccounts(file: CalendarFile): Promise<ForecastAccount[]> {
      return Promise.all(
        accountsOf(file).map(async (accountId) => {
          const account = unwrap(
            await client.api.GET('/v1/workspaces/{workspace_id}/accounts/{account_id}', {
              params: { path: { ...path, account_id: accountId } },
            }),
          );
          return {
            accountId,
            platform: account.platform,
            displayName: account.displayName,
            handle: account.handle,
            limit: account.usage.limit,
            unit: account.usage.unit,
            costPerPost: account.usage.costPerPost,
            usedToday: account.usage.used,
            today: account.usage.day,
          };
        }),
      );
    },

    /** What a create of the body would meet now (validatePost writes nothing). */
    async validate(body: CreatePostBody): Promise<Validation> {
      return unwrap(
        await client.api.POST('/v1/workspaces/{workspace_id}/posts/validate', { params: { path }, body }),
      );
    },

    async create(body: CreatePostBody, idempotencyKey: string): Promise<string> {
      return (await client.createPost(workspaceId, body, { idempotencyKey })).id;
    },

    async update(postId: string, patch: Record<string, unknown>): Promise<void> {
      unwrap(
        await client.api.PATCH('/v1/workspaces/{workspace_id}/posts/{post_id}', {
          params: { path: { ...path, post_id: postId } },
          body: patch,
        }),
      );
    },

    async cancel(postId: string): Promise<void> {
      unwrap(
        await client.api.DELETE('/v1/workspaces/{workspace_id}/posts/{post_id}', {
          params: { path: { ...path, post_id: postId } },
        }),
      );
    },
  };
}

export type CalendarService = ReturnType<typeof makeCalendarService>;

/**
 * How far ahead the accounts' other posts are read: the horizon, or the latest fixed time of the
 * file when it is later, so the forecast of that day counts what is already scheduled there too.
 * Plan and apply read the same window, so a saved plan's fingerprint compares like with like.
 */
export function stateUntil(file: CalendarFile, now: Date): Date {
  let until = now.getTime() + file.horizonDays * DAY_MS;
  for (const entry of file.entries) {
    if (entry.at === undefined) continue;
    try {
      until = Math.max(until, parseAt(entry.at, entry.timezone ?? file.timezone).epochMilliseconds);
    } catch {
      // A time that does not parse is the expansion's to report, with where it is.
    }
  }
  return new Date(until);
}

/** The accounts a calendar posts to or declares slots for, each once, in file order. */
export function accountsOf(file: CalendarFile): string[] {
  return [
    ...new Set([
      ...file.entries.map((entry) => entry.post.accountId),
      ...file.slots.map((slot) => slot.accountId),
    ]),
  ];
}
