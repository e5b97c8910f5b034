import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoCallCounter, makeCallCounter } from '../../shared/adapters/dynamodb/call-counter.js';

export interface StorageOutageSwitch {
  /** Hand it to the host (`dynamodbCalls`): it reaches every DynamoDB client the service makes. */
  counter: DynamoCallCounter;
  /** While true, every DynamoDB call fails as a refused connection does, after the SDK's retries. */
  down: boolean;
}

/** What the SDK throws when nothing listens at the endpoint (the shape its classifiers read). */
function connectionRefused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), {
    code: 'ECONNREFUSED',
    $metadata: { attempts: 3 },
  });
}

/**
 * Storage that can be switched off for a host in the same process, without stopping the suite's
 * DynamoDB Local: the service's clients fail their calls as if it were unreachable.
 */
export function makeStorageOutageSwitch(): StorageOutageSwitch {
  const counting = makeCallCounter();
  const outage: StorageOutageSwitch = {
    down: false,
    counter: {
      ...counting,
      attach(client: DynamoDBClient) {
        counting.attach(client);
        client.middlewareStack.add(
          (next) => async (args) => {
            if (outage.down) throw connectionRefused();
            return next(args);
          },
          { step: 'initialize', name: 'testStorageOutage' },
        );
      },
    },
  };
  return outage;
}
