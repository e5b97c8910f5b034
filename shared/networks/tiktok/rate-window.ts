/**
 * Calls made per account in the last minute, by kind, in this process: the connector checks it
 * before a call TikTok limits per token per minute (init 6, status 30, creator_info 20), and waits
 * (a `pending` or `rate_limited` with the seconds left) rather than spend a call TikTok would
 * refuse. Best effort: each worker process counts its own calls; TikTok's 429
 * `rate_limit_exceeded` remains the backstop and maps to the same wait.
 */
export class PerMinuteWindow {
  private readonly calls = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  /** Seconds until one more call of `kind` for `account` fits under `limit`; 0 when it fits now. */
  waitSeconds(account: string, kind: string, limit: number): number {
    const recent = this.recent(`${account}:${kind}`);
    if (recent.length < limit) return 0;
    const oldest = recent[recent.length - limit] ?? this.now();
    return Math.max(1, Math.ceil((oldest + 60_000 - this.now()) / 1000));
  }

  record(account: string, kind: string): void {
    const key = `${account}:${kind}`;
    this.calls.set(key, [...this.recent(key), this.now()]);
  }

  private recent(key: string): number[] {
    const since = this.now() - 60_000;
    const kept = (this.calls.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.calls.delete(key);
    else this.calls.set(key, kept);
    return kept;
  }
}
