import * as z from 'zod';
import { defineOperation } from '../../http/operation.js';
import { NETWORK_DEFINITIONS } from '../../networks/definitions.js';
import { noParams, noQuery } from '../common-schemas.js';

const networkSchema = z
  .object({
    platform: z.string().describe('The platform name posts and accounts use.'),
    displayName: z.string().describe('The name people know the network by.'),
    aliases: z.array(z.string()).describe('Other names accepted on input for it, stored as platform.'),
    postTypes: z.array(z.string()).describe("Its post types, the first the default of a post's postType."),
    platformOptions: z
      .record(z.string(), z.unknown())
      .describe(
        "The JSON Schema (draft 2020-12) of its platformOptions: what a post's platformOptions.<platform> takes.",
      ),
  })
  .meta({ id: 'Network' });

/**
 * Each network's options as JSON Schema, computed once: pure data of the definitions, the same zod
 * schemas that check a post, so what this answers is what a create accepts.
 */
let networks: z.output<typeof networkSchema>[] | undefined;
function describeNetworks(): z.output<typeof networkSchema>[] {
  networks ??= NETWORK_DEFINITIONS.map((definition) => {
    const { $schema: _dialect, ...platformOptions } = z.toJSONSchema(definition.platformOptions.schema, {
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    return {
      platform: definition.platform,
      displayName: definition.displayName,
      aliases: [...definition.aliases],
      postTypes: [...definition.postTypes],
      platformOptions,
    };
  });
  return networks;
}

export const listNetworks = defineOperation({
  id: 'listNetworks',
  method: 'GET',
  path: '/v1/networks',
  summary: 'List the networks posts can go to',
  description:
    'Every network of this service: its platform name and aliases, its post types and the JSON Schema of its platformOptions (the fields each network takes, described). Connecting an account needs the deployment to have an app for the network (connectAccount answers network_not_configured otherwise).',
  tag: 'Meta',
  auth: 'apiKey',
  rateLimitFamily: 'other',
  workspace: 'none',
  successStatus: 200,
  successDescription: 'Every network, in the order the API lists them.',
  schemas: {
    params: noParams,
    query: noQuery,
    response: z.object({ data: z.array(networkSchema).describe('The networks.') }),
  },
  async handler() {
    return { data: describeNetworks() };
  },
});
