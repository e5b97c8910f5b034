/** What a Graph media container's processing moves through. */
export interface ProcessingContainer {
  status: string;
  /** Status checks still answered IN_PROGRESS. */
  pollsLeft: number;
  /** Set: the container ends ERROR once processed. */
  failWith?: unknown;
  createdAt: number;
}

/**
 * A status check moves a container on: IN_PROGRESS for its polls, then FINISHED (or ERROR); a
 * FINISHED one unpublished past `containerLifetimeMs` (24 hours at Meta) is EXPIRED.
 */
export function advanceContainer(
  settings: { now(): number; containerLifetimeMs: number },
  container: ProcessingContainer,
): void {
  if (container.status === 'IN_PROGRESS') {
    if (container.pollsLeft > 0) {
      container.pollsLeft -= 1;
      return;
    }
    container.status = container.failWith !== undefined ? 'ERROR' : 'FINISHED';
  }
  if (
    container.status === 'FINISHED' &&
    settings.now() - container.createdAt >= settings.containerLifetimeMs
  ) {
    container.status = 'EXPIRED';
  }
}
