import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_TYPES_BY_PLATFORM } from '../../../shared/domain/post-types.js';
import { PLATFORM_IDS } from '../../../shared/networks/definitions.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { mcpUrl } from './support.js';

/** What an agent pays for the catalog before its first call (issue 27): 40 KiB of JSON. */
const TOOLS_LIST_BUDGET_BYTES = 40_960;

type Schema = Record<string, unknown>;

/** The schema a `$ref` of a tool's input names, from the input's own definitions. */
function resolved(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  // Draft-07's definitions (tool inputs) or 2020-12's $defs (listNetworks' schemas).
  const [, kind, name] = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref) ?? [];
  if (kind === undefined || name === undefined) return schema;
  return ((root[kind] ?? {}) as Record<string, Schema>)[name] ?? schema;
}

/** Every schema an argument can take: itself, its anyOf/allOf/oneOf branches, refs followed. */
function branchesOf(schema: Schema, root: Schema): Schema[] {
  const own = resolved(schema, root);
  const nested = ['anyOf', 'allOf', 'oneOf'].flatMap((keyword) => (own[keyword] ?? []) as Schema[]);
  return [own, ...nested.flatMap((branch) => branchesOf(branch, root))];
}

/** The path of every argument and every field of an object argument, recursively, with its description. */
function argumentsOf(schema: Schema, root: Schema, path: string): { path: string; description: unknown }[] {
  return branchesOf(schema, root).flatMap((branch) => {
    const fields = Object.entries((branch.properties ?? {}) as Record<string, Schema>).flatMap(
      ([name, field]) => {
        const fieldPath = path === '' ? name : `${path}.${name}`;
        const description = branchesOf(field, root).find((candidate) => candidate.description)?.description;
        return [{ path: fieldPath, description }, ...argumentsOf(field, root, fieldPath)];
      },
    );
    const items = branch.items ? argumentsOf(branch.items as Schema, root, `${path}[]`) : [];
    return [...fields, ...items];
  });
}

/** Every schema node of a tool's input, definitions included. */
function nodesOf(value: unknown): Schema[] {
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  if (value === null || typeof value !== 'object') return [];
  return [value as Schema, ...Object.values(value).flatMap(nodesOf)];
}

describe('MCP tools/list: what it costs an agent, and that every argument says what it is', () => {
  let host: TestHost;
  let client: Client;
  let tools: Tool[];
  /** The bytes of each tools/list answer, as they crossed HTTP. */
  const listAnswers: number[] = [];
  const tool = (name: string) => {
    const found = tools.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`No tool ${name}`);
    return found;
  };
  const argument = (name: string, argumentName: string): Schema =>
    ((tool(name).inputSchema.properties ?? {}) as Record<string, Schema>)[argumentName] ?? {};
  const bodyField = (name: string, field: string): Schema =>
    ((argument(name, 'body').properties ?? {}) as Record<string, Schema>)[field] ?? {};

  beforeAll(async () => {
    host = await startTestHost();
    const tenant = await host.admin.bootstrap({ name: 'Tool list budget' });
    // The SDK's own transport, with a fetch that weighs the tools/list answers as they arrive.
    const weighingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const asked = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      if (asked.method === 'tools/list') {
        listAnswers.push((await response.clone().arrayBuffer()).byteLength);
      }
      return response;
    };
    client = new Client({ name: 'budget-test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl(host), {
        requestInit: { headers: { Authorization: `Bearer ${tenant.apiKey}` } },
        fetch: weighingFetch,
      }),
    );
    ({ tools } = await client.listTools());
  });
  afterAll(async () => {
    await client.close();
    await host.stop();
  });

  it(`answers the whole catalog in at most ${TOOLS_LIST_BUDGET_BYTES} bytes`, () => {
    expect(listAnswers).toHaveLength(1);
    expect(tools.length).toBeGreaterThan(20);
    expect(listAnswers[0]).toBeLessThanOrEqual(TOOLS_LIST_BUDGET_BYTES);
  });

  it('describes every argument, and every field of an object argument, recursively', () => {
    const undescribed = tools.flatMap((candidate) =>
      argumentsOf(candidate.inputSchema as Schema, candidate.inputSchema as Schema, '')
        .filter(({ description }) => typeof description !== 'string' || description.trim() === '')
        .map(({ path }) => `${candidate.name}: ${path}`),
    );
    expect(undescribed).toEqual([]);
    // The walk reaches the deepest fields: a platform option's child, a media reference's field.
    const createPost = argumentsOf(
      tool('createPost').inputSchema as Schema,
      tool('createPost').inputSchema as Schema,
      '',
    );
    expect(createPost.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['body.platformOptions.tiktok', 'body.media[].userTags[].username']),
    );
  });

  it("names each network's platformOptions and leaves their fields to listNetworks, which describes every one", async () => {
    const options = bodyField('createPost', 'platformOptions');
    const perNetwork = branchesOf(options, options).find((branch) => branch.properties)?.properties as
      | Record<string, Schema>
      | undefined;
    for (const platform of PLATFORM_IDS) {
      const entry = resolved(perNetwork?.[platform] ?? {}, tool('createPost').inputSchema as Schema);
      expect(JSON.stringify(entry)).not.toContain('properties');
    }
    expect(JSON.stringify(options)).toContain('listNetworks');
    const listed = await client.callTool({ name: 'listNetworks', arguments: {} });
    const { data } = listed.structuredContent as { data: { platform: string; platformOptions: Schema }[] };
    for (const network of data) {
      const undescribed = argumentsOf(network.platformOptions, network.platformOptions, '').filter(
        ({ description }) => typeof description !== 'string' || description.trim() === '',
      );
      expect(undescribed, network.platform).toEqual([]);
    }
    expect(data.map((network) => network.platform)).toEqual([...PLATFORM_IDS]);
  });

  it('gives a date-time argument as format date-time, without a pattern', () => {
    const dateTimes = tools.flatMap((candidate) =>
      nodesOf(candidate.inputSchema).filter((node) => node.format === 'date-time'),
    );
    expect(dateTimes.length).toBeGreaterThanOrEqual(3);
    for (const node of dateTimes) expect(node).toMatchObject({ type: 'string', format: 'date-time' });
    for (const node of dateTimes) expect(node.pattern).toBeUndefined();
  });

  it("names each network's post types on postType", () => {
    const postType = bodyField('createPost', 'postType');
    for (const [platform, types] of Object.entries(POST_TYPES_BY_PLATFORM)) {
      expect(postType.description).toContain(`${platform}: ${types.join(', ')}`);
    }
  });

  it('speaks of tool arguments and _meta, not of HTTP headers or URL encoding', () => {
    const createPost = tool('createPost').description ?? '';
    expect(createPost).toContain('idempotencyKey');
    expect(createPost).toContain('_meta.idempotentReplayed');
    const everything = JSON.stringify(tools);
    expect(everything).not.toMatch(/Idempotency-Key|Idempotent-Replayed|%2B/);
  });

  it('writes a schema part several tools share once, and names where it is', () => {
    expect(argument('validatePost', 'body').description).toBe("Same as createPost's body.");
    const updateOptions = bodyField('updatePost', 'platformOptions');
    expect(JSON.stringify(updateOptions)).toContain("Same as createPost's body.platformOptions.");
  });
});
