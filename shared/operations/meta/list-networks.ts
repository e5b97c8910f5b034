import * as z from 'zod';
import { defineOperation } from '../../http/operation.js';
import type { NetworkDefinition } from '../../networks/definition.js';
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
    firstComment: z
      .object({
        how: z.string().describe('How it is made.'),
        maxLength: z.number().int().describe('Most characters.'),
        mediaKinds: z.array(z.string()).describe('Media kinds it may carry; empty: text only.'),
        maxMedia: z.number().int().describe('Most media items.'),
        scopes: z.array(z.string()).describe('Permissions it needs beyond posting.'),
      })
      .nullable()
      .describe("What a post's firstComment may hold; null: none taken."),
    linkPreview: z
      .object({
        card: z
          .enum(['ours', 'network'])
          .describe(
            "ours: built from the link's fields, else the page's tags; network: only the URL is sent.",
          ),
        postTypes: z.array(z.string()).describe('Post types that may carry a link.'),
        withMedia: z.boolean().describe('Whether media may go beside the card.'),
      })
      .nullable()
      .describe("What a post's link does; null: no link cards."),
  })
  .meta({ id: 'Network' });

/**
 * Each network's options as JSON Schema, computed once: pure data of the definitions, the same zod
 * schemas that check a post, so what this answers is what a create accepts.
 */
let networks: z.output<typeof networkSchema>[] | undefined;
function describeNetworks(): z.output<typeof networkSchema>[] {
  networks ??= NETWORK_DEFINITIONS.map((definition: NetworkDefinition) => {
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
      firstComment: definition.firstComment
        ? {
            how: definition.firstComment.how,
            maxLength: definition.firstComment.maxLength,
            mediaKinds: [...definition.firstComment.mediaKinds],
            maxMedia: definition.firstComment.maxMedia,
            scopes: [...(definition.firstComment.scopes ?? [])],
          }
        : null,
      linkPreview: definition.linkPreview
        ? {
            card: definition.linkPreview.card,
            postTypes: [...definition.linkPreview.postTypes],
            withMedia: definition.linkPreview.withMedia,
          }
        : null,
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
    'Every network of this service: its platform name and aliases, its post types, the JSON Schema of its platformOptions (the fields each network takes, described), what a first comment may hold there and what a link card does. Connecting an account needs the deployment to have an app for the network (connectAccount answers network_not_configured otherwise).',
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
