import { ResultAsync } from 'neverthrow';
import type { BatchItemOutcome, CloudObject, CloudStorageError, PutOptions, PutOutcome } from '../ports/cloud-storage';

/** One object write of a driver, as `putObject` has it. */
export type PutOne<L> = (
  location: L,
  key: string,
  body: CloudObject['body'],
  options: PutOptions,
) => ResultAsync<PutOutcome, CloudStorageError>;

/**
 * Writes a batch with at most `concurrency` writes in flight, answering one
 * outcome per object in order: what every driver's `putObjects` needs, written once.
 * `put` never rejects (its failures are values), so neither does this.
 */
export function putMany<L>(
  put: PutOne<L>,
  location: L,
  objects: readonly CloudObject[],
  options: Omit<PutOptions, 'contentType'>,
  concurrency: number,
): ResultAsync<BatchItemOutcome[], never> {
  const outcomes = new Array<BatchItemOutcome>(objects.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < objects.length) {
      const index = next++;
      const object = objects[index] as CloudObject;
      const result = await put(location, object.key, object.body, {
        ...options,
        ...(object.contentType === undefined ? {} : { contentType: object.contentType }),
      });
      outcomes[index] = result.match(
        ({ written }): BatchItemOutcome => ({ key: object.key, ok: true, written }),
        (error): BatchItemOutcome => ({ key: object.key, ok: false, error }),
      );
    }
  };
  return ResultAsync.fromSafePromise(
    Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, objects.length)) }, worker)).then(
      () => outcomes,
    ),
  );
}
