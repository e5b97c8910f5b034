import type { ErrorCode } from '../domain/errors.js';
import type { Operation, OperationResource } from './operation.js';

/**
 * Resources a deployment may lack: the media bucket and the secrets key are optional, and their
 * stand-ins answer 503 service_unavailable (shared/adapters/s3/unconfigured-storage.ts,
 * shared/adapters/kms/unconfigured-cipher.ts).
 */
const OPTIONAL_RESOURCES: ReadonlySet<OperationResource> = new Set([
  'media-upload',
  'media-read',
  'media-delete',
  'secrets-encrypt',
]);

/**
 * Every error code an operation can answer, derived from what it declares, in the order of the
 * middleware stack (operation-handler.ts):
 * 1. the body size check runs for every operation: payload_too_large;
 * 2. `auth: 'apiKey'`: unauthorized, plan_inactive, permission_denied (when it names a
 *    `permission`), rate_limited;
 * 3. `workspace`: not_found for a path workspace; workspace_required and not_found for an implicit one;
 * 4. a body schema: unsupported_media_type; INVALID_REQUEST for every operation: its input fails
 *    the schemas, or a body is sent to one that takes none;
 * 5. the handler's own `errors`;
 * 6. service_unavailable: every operation that reads storage (each key-authenticated one looks its
 *    key up) when storage is throttled or unreachable (shared/adapters/aws/dependency-outage.ts),
 *    and those whose `resources` a deployment may lack;
 * 7. internal_error, which any operation may answer.
 * 405 method_not_allowed comes from the fallback route, not from an operation.
 */
export function errorCodesOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['payload_too_large']);
  if (operation.auth === 'apiKey') {
    codes.add('unauthorized').add('plan_inactive');
    if (operation.permission) codes.add('permission_denied');
    codes.add('rate_limited');
  }
  if (operation.workspace === 'path') codes.add('not_found');
  if (operation.workspace === 'implicit') codes.add('workspace_required').add('not_found');
  if (operation.schemas.body) codes.add('unsupported_media_type');
  codes.add('INVALID_REQUEST');
  for (const code of operation.errors ?? []) codes.add(code);
  if (
    operation.auth === 'apiKey' ||
    operation.resources?.some((resource) => OPTIONAL_RESOURCES.has(resource))
  )
    codes.add('service_unavailable');
  codes.add('internal_error');
  return [...codes];
}
