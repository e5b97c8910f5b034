import type { MetricsCollectionSetting } from '../domain/metrics-settings.js';
import type { WorkspacePolicies } from '../domain/policies.js';
import type { Workspace } from '../domain/tenancy.js';
import type { Page, PageRequest } from './page.js';

/** A tenant's workspaces, their names, policies and connect settings. Every read is scoped to a tenant. */
export interface WorkspaceStore {
  putWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(tenantId: string, workspaceId: string): Promise<Workspace | undefined>;
  /**
   * Oldest first. `visible` narrows the page to what a caller may see (an agent's scope): the page
   * fills with visible workspaces, and its cursor is null once none is left.
   */
  listWorkspaces(
    tenantId: string,
    page: PageRequest,
    visible?: (workspace: Workspace) => boolean,
  ): Promise<Page<Workspace>>;
  /** Changes the workspace's name; NotFoundError when there is no such workspace. */
  renameWorkspace(tenantId: string, workspaceId: string, name: string): Promise<Workspace>;
  /** Replaces the workspace's policies; NotFoundError when there is no such workspace. */
  setWorkspacePolicies(
    tenantId: string,
    workspaceId: string,
    policies: WorkspacePolicies,
  ): Promise<Workspace>;
  /**
   * Replaces which networks' metrics the workspace collects; undefined removes its own setting (the
   * default applies again). NotFoundError when there is no such workspace.
   */
  setMetricsCollection(
    tenantId: string,
    workspaceId: string,
    setting: MetricsCollectionSetting | undefined,
  ): Promise<Workspace>;

  /**
   * Replaces the redirect URIs a connect may send the person back to: the tenant's own list when
   * `workspaceId` is undefined, else the workspace's; an empty list removes it. NotFoundError when
   * there is no such tenant or workspace.
   */
  setOAuthRedirectUris(tenantId: string, workspaceId: string | undefined, uris: string[]): Promise<void>;
}
