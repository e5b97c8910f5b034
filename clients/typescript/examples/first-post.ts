/**
 * The first ten minutes (docs/client-first-ten-minutes.md): find the workspace and the sandbox
 * short-message account, publish a post and wait for it, then schedule one 10 seconds ahead.
 * Run from the repository: SMCP_API_KEY=smcp_… npx tsx clients/typescript/examples/first-post.ts
 */
import { ApiError, createClient } from '../src/index.js';

const baseUrl = process.env.SMCP_BASE_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.SMCP_API_KEY ?? '';
const client = createClient({ baseUrl, apiKey });

async function main() {
  // Every operation of the document, typed: paths, parameters and bodies are checked by tsc.
  const workspaces = await client.api.GET('/v1/workspaces');
  const workspaceId = workspaces.data?.data[0]?.id;
  if (!workspaceId)
    throw new Error(`No workspace (HTTP ${workspaces.response.status}): is the API key right?`);
  const accounts = await client.api.GET('/v1/workspaces/{workspace_id}/accounts', {
    params: { path: { workspace_id: workspaceId } },
  });
  const twitter = accounts.data?.data.find((account) => account.platform === 'twitter');
  if (!twitter) throw new Error('No twitter account in the workspace.');
  console.log(`workspace ${workspaceId}, account ${twitter.id} (${twitter.handle})`);

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

  const scheduled = await client.schedulePost(
    workspaceId,
    { platform: 'twitter', accountId: twitter.id, postType: 'text', content: 'Ten seconds later' },
    new Date(Date.now() + 10_000),
  );
  console.log(
    `scheduled ${scheduled.id} for ${(await client.getPost(workspaceId, scheduled.id)).scheduledAt}`,
  );
  const later = await client.waitForPost(workspaceId, scheduled.id, { timeoutMs: 30_000 });
  console.log(`${later.id}: ${later.status} at ${later.publishedAt}`);
}

main().catch((error: unknown) => {
  if (error instanceof ApiError) {
    console.error(`${error.status} ${error.code}: ${error.message} (request ${error.requestId})`);
    if (error.details) console.error(error.details);
    if (error.errors) console.error(error.errors);
  } else console.error(error);
  process.exitCode = 1;
});
