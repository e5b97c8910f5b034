import type { AppCredentials } from '../../ports/app-credentials.js';

/** The scopes an app's OAuth may ask for, and which of them serve only the metrics. */
export interface DeclaredScopes {
  scopes: readonly string[];
  /** Of `scopes`, those asked only for the metrics (none where publishing needs them too: X, YouTube). */
  metricsOnlyScopes?: readonly string[];
  /** Of `scopes`, those asked only for first comments (definition `firstComment.scopes`). */
  commentOnlyScopes?: readonly string[];
  /** Of `scopes`, those only some platformOptions need (NetworkOptions.scopes: TikTok's inbox drafts). */
  optionOnlyScopes?: readonly string[];
}

/**
 * What a connect asks for: every declared scope, less the metrics-only ones when the operator
 * says the app is not approved for them (AppCredentials.askMetricsScopes false), so that such an
 * app can still connect. The order is the declaration's.
 */
export function scopesToAsk(
  declared: DeclaredScopes,
  app: Pick<AppCredentials, 'askMetricsScopes' | 'askCommentScopes' | 'askOptionScopes'>,
): string[] {
  const left = new Set([
    ...(app.askMetricsScopes === false ? (declared.metricsOnlyScopes ?? []) : []),
    ...(app.askCommentScopes === false ? (declared.commentOnlyScopes ?? []) : []),
    ...(app.askOptionScopes === false ? (declared.optionOnlyScopes ?? []) : []),
  ]);
  return declared.scopes.filter((scope) => !left.has(scope));
}
