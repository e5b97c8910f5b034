import type { Tenant } from '../domain/tenancy.js';

/** Tenants: who is billed, on which plan. */
export interface TenantStore {
  putTenant(tenant: Tenant): Promise<void>;
  getTenant(tenantId: string): Promise<Tenant | undefined>;
  setPlan(tenantId: string, change: Partial<Pick<Tenant, 'planStatus' | 'planTier'>>): Promise<Tenant>;
}
