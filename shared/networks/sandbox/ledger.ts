/**
 * What the sandbox "network" remembers it has published: one record per client reference, so a
 * repeat of a post is answered with the post it already has (as X does with duplicate content)
 * and `findPublished` can tell a worker that died mid-call whether its post went out.
 *
 * Kept deliberately flat for storage: a string key and three strings. A DynamoDB implementation is
 * one item per reference (`pk = SANDBOX#<clientReference>`, the three fields as attributes), a
 * conditional PutItem (`attribute_not_exists(pk)`, the condition failure swallowed) and a GetItem.
 */
export interface SandboxPublication {
  platformPostId: string;
  platformPostUrl: string;
  /** ISO 8601 UTC: when the sandbox first published it. */
  publishedAt: string;
}

export interface SandboxLedger {
  /**
   * Remembers a publication. First writer wins: when the reference is already recorded, the stored
   * record stays as it is (two workers racing on one post publish it once).
   */
  record(clientReference: string, result: SandboxPublication): Promise<void>;
  find(clientReference: string): Promise<SandboxPublication | undefined>;
}

/** The ledger of one process: enough for tests and for a local host that keeps running. */
export function makeMemorySandboxLedger(): SandboxLedger {
  const entries = new Map<string, SandboxPublication>();
  return {
    async record(clientReference, result) {
      if (!entries.has(clientReference)) entries.set(clientReference, { ...result });
    },
    async find(clientReference) {
      const entry = entries.get(clientReference);
      return entry ? { ...entry } : undefined;
    },
  };
}
