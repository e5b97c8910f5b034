/**
 * The first ten minutes (docs/client-first-ten-minutes.md, steps 2 and 3, which show this program
 * whole): find the workspace and the sandbox short-message account, publish a post and wait for
 * it, schedule one 10 seconds ahead, then meet an error.
 * Run from the repository: SMCP_API_KEY=smcp_… npx tsx clients/typescript/examples/first-post.ts
 */
import { ApiError, createClient } from '../src/index.js';

// The local host's address (PORT=3210 npm start → SMCP_BASE_URL=http://127.0.0.1:3210).
const baseUrl = process.env.SMCP_BASE_URL ?? 'http://127.0.0.1:3000';
const client = createClient({ baseUrl, apiKey: process.env.SMCP_API_KEY ?? '' });

// Any operation of the OpenAPI document, typed: the path, its parameters and its answer.
const workspaces = await client.api.GET('/v1/workspaces');
const workspaceId = workspaces.data?.data[0]?.id;
if (!workspaceId) throw new Error(`No workspace (HTTP ${workspaces.response.status}): is the API key right?`);
const accounts = await client.api.GET('/v1/workspaces/{workspace_id}/accounts', {
  params: { path: { workspace_id: workspaceId } },
});
const twitter = accounts.data?.data.find((account) => account.platform === 'twitter');
if (!twitter) throw new Error('No twitter account in the workspace.');
console.log(`workspace ${workspaceId}, account ${twitter.id} (${twitter.handle})`);

// A post to publish now: answered at once as queued, delivered a moment later.
const created = await client.createPost(workspaceId, {
  platform: 'twitter',
  accountId: twitter.id,
  status: 'publish',
  postType: 'text',
  content: 'Hello from the typed client',
});
console.log(`created ${created.id}: ${created.status}`);
const published = await client.waitForPost(workspaceId, created.id);
console.log(`${published.id}: ${published.status} at ${published.platformPostUrl}`);

// A post for ten seconds from now.
const scheduled = await client.schedulePost(
  workspaceId,
  { platform: 'twitter', accountId: twitter.id, postType: 'text', content: 'Ten seconds later' },
  new Date(Date.now() + 10_000),
);
console.log(`scheduled ${scheduled.id} for ${(await client.getPost(workspaceId, scheduled.id)).scheduledAt}`);
const later = await client.waitForPost(workspaceId, scheduled.id, { timeoutMs: 30_000 });
console.log(`${later.id}: ${later.status} at ${later.publishedAt}`);

// Step 3: an error. The same post, too long for the short-message network (280 weighted characters).
const post = { platform: 'twitter', accountId: twitter.id, status: 'publish', postType: 'text' } as const;
try {
  await client.createPost(workspaceId, { ...post, content: 'x'.repeat(281) });
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  console.log(error.status, error.code, error.message, JSON.stringify(error.errors), error.requestId);
}
