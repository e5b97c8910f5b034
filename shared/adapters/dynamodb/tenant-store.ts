import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenancy.js';
import type { TenantStore } from '../../ports/tenant-store.js';
import { readItem } from './item-reads.js';
import { keys, toItem } from './keys.js';
import { updateExisting } from './update-existing.js';

/** Tenants, one item each in the main table under their own partition (docs/data-model.md). */
export function makeDynamoTenantStore(db: DynamoDBDocumentClient, tableName: string): TenantStore {
  return {
    async putTenant(tenant) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('tenant', keys.tenant(tenant.tenantId), tenant),
        }),
      );
    },
    getTenant: (tenantId) => readItem<Tenant>(db, tableName, keys.tenant(tenantId)),
    async setPlan(tenantId, change) {
      const names = Object.keys(change) as (keyof typeof change)[];
      if (names.length === 0) {
        const tenant = await readItem<Tenant>(db, tableName, keys.tenant(tenantId));
        if (!tenant) throw new NotFoundError('No such tenant.');
        return tenant;
      }
      return updateExisting<Tenant>(
        db,
        {
          TableName: tableName,
          Key: keys.tenant(tenantId),
          UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, change[name]])),
        },
        'tenant',
      );
    },
  };
}
