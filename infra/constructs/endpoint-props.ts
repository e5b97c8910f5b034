import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Operation } from '../../shared/http/operation.js';
import type { MediaStorage } from './media-storage.js';
import type { NetworkApps } from './network-apps.js';
import type { DataTables } from './tables.js';

/**
 * What a function that runs several of the registry's operations (MCP, the dashboard) is built
 * from: the operations (its grants are theirs), the API it gets routes on, and what those
 * operations' own functions are given.
 */
export interface MultiOperationEndpointProps {
  /** The registry: the function's grants come from the operations of it that it runs. */
  operations: readonly Operation[];
  /** The API that gets the function's routes. */
  httpApi: apigw.HttpApi;
  data: DataTables;
  media: MediaStorage;
  secretsKey: kms.IKey;
  /** The operation functions' environment (tables, MEDIA_BUCKET, log level). */
  environment: Readonly<Record<string, string>>;
  /** For the operations that call the networks (connect, disconnect): their secrets and endpoints. */
  networkApps: NetworkApps;
  /**
   * Where people reach the service (ServiceHttpApi.publicBaseUrl): the OAuth callback's base, and
   * the dashboard's connect return address and invitation links.
   */
  publicBaseUrl: string;
}
