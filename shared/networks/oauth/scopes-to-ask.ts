import type { AppCredentials } from '../../ports/app-credentials.js';

/** The scopes an app's OAuth may ask for, and which of them serve only the metrics. */
export interface DeclaredScopes {
  scopes: readonly string[];
  /** Of `scopes`, those asked only for the metrics (none where publishing needs them too: X, YouTube). */
  metricsOnlyScopes?: readonly string[];
}

/**
 * What a connect asks for: every declared scope, less the metrics-only ones when the operator
 * says the app is not approved for them (AppCredentials.askMetricsScopes false), so that such an
 * app can still connect. The order is the declaration's.
 */
export function scopesToAsk(
  declared: DeclaredScopes,
  app: Pick<AppCredentials, 'askMetricsScopes'>,
): string[] {
  if (app.askMetricsScopes !== false) return [...declared.scopes];
  const left = new Set(declared.metricsOnlyScopes ?? []);
  return declared.scopes.filter((scope) => !left.has(scope));
}
