import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** docs/mcp.md's worked example is a real file (docs/examples/), run here as a user would. */
interface Scheduled {
  id: string;
  scheduledAt: string;
  replayed: boolean;
}
const { scheduleWeek } = (await import(
  new URL('../../docs/examples/mcp-schedule-week.mjs', import.meta.url).href
)) as {
  scheduleWeek(options: { url: string; apiKey: string; from?: Date }): Promise<Scheduled[]>;
};

let host: TestHost;
let tenant: BootstrapResult;
beforeAll(async () => {
  host = await startTestHost();
  tenant = await host.admin.bootstrap({ name: 'Week planner' });
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await host.stop();
});

it('schedules seven mornings through MCP, and a second run replays instead of posting again', async () => {
  const options = { url: `${host.baseUrl}/mcp`, apiKey: tenant.apiKey };
  const first = await scheduleWeek(options);
  expect(first).toHaveLength(7);
  expect(first.every((post) => !post.replayed)).toBe(true);
  expect(first.every((post) => post.scheduledAt.endsWith('T09:00:00.000Z'))).toBe(true);

  const second = await scheduleWeek(options);
  expect(second.map((post) => post.id)).toEqual(first.map((post) => post.id));
  expect(second.every((post) => post.replayed)).toBe(true);

  const listed = await host.call(`/v1/workspaces/${tenant.workspaceId}/posts?status=scheduled`, {
    apiKey: tenant.apiKey,
  });
  const { data } = (await listed.json()) as { data: { id: string; scheduledAt: string }[] };
  expect(data.map((post) => post.id).sort()).toEqual(first.map((post) => post.id).sort());
});
