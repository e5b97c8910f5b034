/**
 * What a network is, as data: the part of a network that the domain, the operations, OpenAPI and
 * the dashboard may know of. Each network declares its own in `shared/networks/<net>/definition.ts`
 * (pure data and schemas: no connector, no SDK, nothing that calls out), and
 * `shared/networks/definitions.ts` collects them; everything else derives from that list.
 */
export interface NetworkDefinition<P extends string = string> {
  /** The platform value of the API (the interface's "Platforms and post types"). */
  readonly platform: P;
  /** The name people know the network by: the dashboard's tables, the connect result page. */
  readonly displayName: string;
  /** Other names accepted on input (lower case), stored as `platform`. */
  readonly aliases: readonly string[];
}

/** Checks a definition's shape while keeping its literal types (`platform: 'twitter'`). */
export function defineNetwork<const P extends string>(
  definition: NetworkDefinition<P>,
): NetworkDefinition<P> {
  return definition;
}
