import { AppError } from './errors.js';

/** Why a post's or an account's metrics cannot be answered at all (docs/metrics.md "When there are none"). */
export type MetricsUnavailableReason =
  /** The network has no metrics reader, or gives no numbers for this kind of thing. */
  | 'network_gives_none'
  /** The workspace's setting leaves the network out (X's reads are paid: off unless chosen). */
  | 'not_collected_by_workspace'
  /** The network no longer has the post, and no reading was taken before it went. */
  | 'deleted_at_network';

/**
 * A metrics read with nothing to show: never an empty success that a caller would read as zero.
 * Each case is its own 409 code, with what the caller needs to act on it as a member of the envelope.
 */
export type MetricsRefusal =
  | { code: 'post_not_published'; postStatus: string }
  | { code: 'metrics_unavailable'; reason: MetricsUnavailableReason }
  | { code: 'metrics_missing_scopes'; missingScopes: readonly string[] }
  | { code: 'metrics_not_collected_yet'; nextCollectionAt: string | null };

const MESSAGES: { [C in MetricsRefusal['code']]: (refusal: Extract<MetricsRefusal, { code: C }>) => string } =
  {
    post_not_published: (refusal) =>
      `The post is ${refusal.postStatus}, not published: only a published post has metrics.`,
    metrics_unavailable: (refusal) =>
      refusal.reason === 'network_gives_none'
        ? 'Its network gives no metrics through this service.'
        : refusal.reason === 'not_collected_by_workspace'
          ? "The workspace does not collect this network's metrics: its metricsCollection setting leaves it out."
          : 'The network no longer has the post, and no metrics were read before it went.',
    metrics_missing_scopes: (refusal) =>
      `The account's token lacks the permissions metrics need (${refusal.missingScopes.join(', ')}): reconnect the account to grant them.`,
    metrics_not_collected_yet: (refusal) =>
      refusal.nextCollectionAt === null
        ? 'No metrics have been read yet.'
        : `No metrics have been read yet: the first collection is due at ${refusal.nextCollectionAt}.`,
  };

export class MetricsRefusedError extends AppError {
  readonly code: MetricsRefusal['code'];
  constructor(refusal: MetricsRefusal) {
    super((MESSAGES[refusal.code] as (refusal: MetricsRefusal) => string)(refusal));
    this.name = 'MetricsRefusedError';
    this.code = refusal.code;
    const { code: _code, ...members } = refusal;
    Object.assign(this.fields, members);
  }
}
