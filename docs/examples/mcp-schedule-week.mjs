// An agent's week of posts through the MCP server, with the official SDK's client.
//   MCP_URL=http://127.0.0.1:3000/mcp API_KEY=smcp_… node docs/examples/mcp-schedule-week.mjs
// Safe to run twice: each day's idempotencyKey makes a second run replay, never post again.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const TIPS = [
  'Monday: write the summary first.',
  'Tuesday: one idea per post.',
  'Wednesday: cut the first sentence.',
  'Thursday: show, then tell.',
  'Friday: end with a question.',
  'Saturday: reread last week.',
  'Sunday: rest.',
];

/** Calls a tool and returns its structured content; a tool error becomes an exception with our envelope. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const { error, message, status } = result.structuredContent;
    throw new Error(`${name}: ${status} ${error}: ${message}`);
  }
  return { body: result.structuredContent, replayed: result._meta?.idempotentReplayed === true };
}

/** 09:00 UTC on each of the seven days after `from`. */
function nextSevenMornings(from) {
  return TIPS.map((_, day) => {
    const at = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + day + 1, 9));
    return at.toISOString();
  });
}

export async function scheduleWeek({ url, apiKey, from = new Date() }) {
  const client = new Client({ name: 'week-planner', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  );
  try {
    // 1. Where to post: the first workspace and its short-message account.
    const workspaces = await call(client, 'listWorkspaces', {});
    const workspaceId = workspaces.body.data[0].id;
    const accounts = await call(client, 'listAccounts', { workspaceId, platform: 'twitter' });
    const account = accounts.body.data[0];

    const scheduled = [];
    for (const [day, scheduledAt] of nextSevenMornings(from).entries()) {
      const body = {
        accountId: account.id,
        platform: account.platform,
        postType: 'text',
        content: TIPS[day],
        status: 'scheduled',
        scheduledAt,
      };
      // 2. Check before posting: the same rules and policies a create runs, nothing written.
      const check = await call(client, 'validatePost', { workspaceId, body });
      if (!check.body.valid) {
        console.log(`${scheduledAt}: skipped`, check.body.errors, check.body.policyViolation ?? '');
        continue;
      }
      // 3. Create it, with a key per day: a retry (or a second run) replays instead of posting twice.
      const created = await call(client, 'createPost', {
        workspaceId,
        idempotencyKey: `week-plan-${account.id}-${scheduledAt}`,
        body,
      });
      scheduled.push({ id: created.body.id, scheduledAt, replayed: created.replayed });
      console.log(
        `${scheduledAt}: ${created.body.id} ${created.body.status}${created.replayed ? ' (replayed)' : ''}`,
      );
    }

    // 4. What is now waiting, as the service sees it.
    const waiting = await call(client, 'listPosts', { workspaceId, status: 'scheduled', limit: 50 });
    console.log(`${waiting.body.data.length} scheduled posts in ${workspaceId}`);
    return scheduled;
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await scheduleWeek({ url: process.env.MCP_URL, apiKey: process.env.API_KEY });
}
