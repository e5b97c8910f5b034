import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TABLES, type TableDefinition } from '../../shared/adapters/dynamodb/tables.js';
import type { Operation } from '../../shared/http/operation.js';
import { operations as registry } from '../../shared/operations/registry.js';
import { ServiceHttpApi } from '../constructs/http-api.js';
import { DataTables } from '../constructs/tables.js';

export interface ServiceStackProps extends StackProps {
  stage: string;
  /** @default the registry (tests may pass another list) */
  operations?: readonly Operation[];
}

/** `rate-limits` → `RateLimitsTableName`: the output keys the admin CLI reads. */
export function tableOutputKey(definition: TableDefinition): string {
  const pascal = definition.id
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return `${pascal}TableName`;
}

/**
 * The whole service in one stack, in two parts kept apart: `Data` (the tables, retained, the only
 * state) and `Api` (functions and routes, replaceable at will). Outputs: one `<Table>TableName` per
 * table and `ApiUrl`.
 */
export class ServiceStack extends Stack {
  readonly operations: readonly Operation[];
  readonly data: DataTables;
  readonly api: ServiceHttpApi;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    this.operations = props.operations ?? registry;
    Tags.of(this).add('Service', 'social-publishing');
    Tags.of(this).add('Stage', props.stage);

    this.data = new DataTables(this, 'Data', { definitions: TABLES });
    this.api = new ServiceHttpApi(this, 'Api', {
      operations: this.operations,
      data: this.data,
    });

    for (const { definition, table } of this.data.tables) {
      new CfnOutput(this, tableOutputKey(definition), {
        value: table.tableName,
        description: `DynamoDB table "${definition.id}" (functions read it from ${definition.envVar})`,
      });
    }
    new CfnOutput(this, 'ApiUrl', {
      value: this.api.httpApi.apiEndpoint,
      description: 'Base URL of the HTTP API (no trailing slash)',
    });
  }
}
