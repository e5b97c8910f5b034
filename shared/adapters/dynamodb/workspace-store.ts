import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../domain/errors.js';
import type { Workspace } from '../../domain/tenancy.js';
import type { Page } from '../../ports/page.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';
import { readItem } from './item-reads.js';
import { keys, toItem } from './keys.js';
import { queryPage } from './query-page.js';
import { updateExisting } from './update-existing.js';

/** Workspaces, in their tenant's partition of the main table (docs/data-model.md). */
export function makeDynamoWorkspaceStore(db: DynamoDBDocumentClient, tableName: string): WorkspaceStore {
  return {
    async putWorkspace(workspace) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toItem('workspace', keys.workspace(workspace.tenantId, workspace.workspaceId), workspace),
        }),
      );
    },
    getWorkspace: (tenantId, workspaceId) =>
      readItem<Workspace>(db, tableName, keys.workspace(tenantId, workspaceId)),
    async setWorkspacePolicies(tenantId, workspaceId, policies) {
      return updateExisting<Workspace>(
        db,
        {
          TableName: tableName,
          Key: keys.workspace(tenantId, workspaceId),
          UpdateExpression: 'SET policies = :policies',
          ExpressionAttributeValues: { ':policies': policies },
        },
        'workspace',
      );
    },
    async setMetricsCollection(tenantId, workspaceId, setting) {
      return updateExisting<Workspace>(
        db,
        {
          TableName: tableName,
          Key: keys.workspace(tenantId, workspaceId),
          ...(setting
            ? {
                UpdateExpression: 'SET metricsCollection = :setting',
                ExpressionAttributeValues: { ':setting': setting },
              }
            : { UpdateExpression: 'REMOVE metricsCollection' }),
        },
        'workspace',
      );
    },
    async setOAuthRedirectUris(tenantId, workspaceId, uris) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: workspaceId ? keys.workspace(tenantId, workspaceId) : keys.tenant(tenantId),
            ConditionExpression: 'attribute_exists(pk)',
            ...(uris.length > 0
              ? {
                  UpdateExpression: 'SET oauthRedirectUris = :uris',
                  ExpressionAttributeValues: { ':uris': uris },
                }
              : { UpdateExpression: 'REMOVE oauthRedirectUris' }),
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException)
          throw new NotFoundError(workspaceId ? 'No such workspace.' : 'No such tenant.');
        throw error;
      }
    },
    listWorkspaces: (tenantId, page, visible): Promise<Page<Workspace>> =>
      queryPage<Workspace>(db, tableName, {
        pk: keys.tenant(tenantId).pk,
        prefix: keys.workspacePrefix,
        page,
        ...(visible && { keep: visible }),
      }),
    async renameWorkspace(tenantId, workspaceId, name) {
      return updateExisting<Workspace>(
        db,
        {
          TableName: tableName,
          Key: keys.workspace(tenantId, workspaceId),
          UpdateExpression: 'SET #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': name },
        },
        'workspace',
      );
    },
  };
}
