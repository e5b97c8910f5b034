/**
 * What the sandbox "network" remembers it has published: one record per client reference, so a
 * repeat of a post is answered with the post it already has (as X does with duplicate content)
 * and `findPublished` can tell a worker that died mid-call whether its post went out.
 *
 * Kept deliberately flat for storage: a string key and three strings. A DynamoDB implementation is
 * one item per reference (`pk = SANDBOX#<clientReference>`, the three fields as attributes): a
 * conditional PutItem (`attribute_not_exists(pk)`) whose refusal returns the item already there,
 * and a GetItem.
 */
export interface SandboxPublication {
  platformPostId: string;
  platformPostUrl: string;
  /** ISO 8601 UTC: when the sandbox first published it. */
  publishedAt: string;
}

export interface SandboxLedger {
  /**
   * Remembers a publication and answers the one the ledger holds. First writer wins: when the
   * reference is already recorded, the stored record stays as it is and is the answer (two workers
   * racing on one post publish it once, and a repeat gets the first publication back).
   */
  record(clientReference: string, result: SandboxPublication): Promise<SandboxPublication>;
  find(clientReference: string): Promise<SandboxPublication | undefined>;
}

/** The ledger of one process: enough for tests and for a local host that keeps running. */
export function makeMemorySandboxLedger(): SandboxLedger {
  const entries = new Map<string, SandboxPublication>();
  return {
    async record(clientReference, result) {
      const recorded = entries.get(clientReference) ?? { ...result };
      entries.set(clientReference, recorded);
      return { ...recorded };
    },
    async find(clientReference) {
      const entry = entries.get(clientReference);
      return entry ? { ...entry } : undefined;
    },
  };
}
