import { errors, type FlowStore, type StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { flowAtVersion, flowById, flowsByAccount } from '../queries';
import { flowDocument, toFlow } from '../records';

/**
 * Flow configurations by `_id`. An update replaces the document only while it is at
 * the expected version: of two concurrent updates from one version, the server lets
 * exactly one match, and the other is a Conflict.
 */
export function flowStore(c: Pick<MongoCollections, 'flows'>): FlowStore {
  return {
    insert: (flow) => attempt('insert flow', () => c.flows.insertOne(flowDocument(flow))).map(() => undefined),
    get: (id) =>
      attempt('get flow', async () => {
        const doc = await c.flows.findOne(flowById(id));
        return doc ? toFlow(doc) : undefined;
      }),
    listByAccount: (accountId) =>
      attempt('list flows', async () => {
        const { filter, sort } = flowsByAccount(accountId);
        return (await c.flows.find(filter).sort(sort).toArray()).map(toFlow);
      }),
    update: (flow, expectedVersion) =>
      attempt('update flow', () =>
        c.flows.replaceOne(flowAtVersion(flow.id, expectedVersion), flowDocument(flow)),
      ).andThen(({ matchedCount }) =>
        matchedCount > 0
          ? okAsync(undefined)
          : errAsync(
              errors.conflict(
                `[leadroute] [mongo] update flow: flow ${flow.id} is not at version ${expectedVersion}.`,
              ) as StoreError,
            ),
      ),
  };
}
