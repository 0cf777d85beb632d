import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
// The memory spool is the reference implementation of the spool port; core's own
// tests borrow it rather than growing a second one.
import { memorySpool } from '../../../../adapters/memory/src/spool';
import { errors } from '../errors';
import { type CloudCredential, createFirehoseDelivery, firehoseObjectKey } from './delivery';
import { failure, fakeDriver } from './fake-driver.test-helper';

const T0 = Date.UTC(2025, 2, 1, 10, 0, 0);
const credentials: Record<string, CloudCredential> = {
  c1: { service: 'aws', accessKeyId: 'AKIA', secretAccessKey: 's' },
  az: { service: 'azure', connectionString: 'AccountName=a;AccountKey=k' },
};
const resolveCredential = (id: string) => {
  const c = credentials[id];
  return c ? okAsync(c) : errAsync(errors.notFound('credential', id));
};

function setup() {
  const aws = fakeDriver('aws');
  const azure = fakeDriver('azure');
  const spool = memorySpool();
  let now = T0;
  const clock = { now: () => now };
  const warnings: object[] = [];
  const delivery = createFirehoseDelivery({
    cloudStorage: { aws: aws.driver, azure: azure.driver },
    spool,
    clock,
    resolveCredential,
    logger: { warn: (obj) => warnings.push(obj) },
  });
  return { aws, azure, spool, delivery, warnings, setNow: (t: number) => (now = t) };
}

const legacy = { enabled: true, credential_id: 'c1', bucket: 'my-bucket', prefix: 'events/' };
const event = (n: number) => ({
  id: `65f0000000000000000000${String(n).padStart(2, '0')}`,
  lead_id: 'lead1',
  type: 'source',
  n,
});

describe('firehose delivery', () => {
  it('writes each event as JSON to <prefix>/<lead id>/<event id>.json', async () => {
    const { aws, delivery } = setup();
    const outcomes = (await delivery.deliver(legacy, event(1)))._unsafeUnwrap();
    const key = 'events/lead1/65f000000000000000000001.json';
    expect(outcomes).toEqual([{ service: 'aws', bucket: 'my-bucket', key, status: 'delivered' }]);
    expect(JSON.parse(aws.objects.get(`my-bucket/${key}`)?.body ?? '')).toEqual(event(1));
    expect(aws.objects.get(`my-bucket/${key}`)?.contentType).toBe('application/json');
    expect(firehoseObjectKey(undefined, 'l', 'e')).toBe('l/e.json');
  });

  it('delivers to every enabled service and to none when disabled', async () => {
    const { aws, azure, delivery } = setup();
    const both = {
      enabled: true,
      services: {
        aws: { enabled: true, credential_id: 'c1', bucket: 'my-bucket' },
        azure: { enabled: true, credential_id: 'az', bucket: 'events', prefix: 'fh' },
      },
    };
    expect((await delivery.deliver(both, event(1)))._unsafeUnwrap().map((o) => o.status)).toEqual([
      'delivered',
      'delivered',
    ]);
    expect(azure.writes).toEqual(['events/fh/lead1/65f000000000000000000001.json']);
    expect((await delivery.deliver({ ...both, enabled: false }, event(2)))._unsafeUnwrap()).toEqual([]);
    expect(aws.writes).toHaveLength(1);
  });

  it('spools what fails and retries it with backoff until delivered, once', async () => {
    const { aws, spool, delivery, warnings, setNow } = setup();
    aws.state.failure = failure('Unavailable', 'connect ECONNREFUSED');
    const outcomes = (await delivery.deliver(legacy, event(1)))._unsafeUnwrap();
    expect(outcomes[0]).toMatchObject({ status: 'spooled', error: 'connect ECONNREFUSED' });
    expect(warnings).toHaveLength(1);
    // The same event again is not held twice.
    expect((await delivery.deliver(legacy, event(1)))._unsafeUnwrap()[0]?.status).toBe('already-spooled');
    expect((await spool.count())._unsafeUnwrap()).toBe(1);

    expect((await delivery.retryDue(T0 + 999))._unsafeUnwrap()).toEqual({ leased: 0, delivered: 0, rescheduled: 0 });
    expect((await delivery.retryDue(T0 + 1000))._unsafeUnwrap()).toEqual({ leased: 1, delivered: 0, rescheduled: 1 });
    // Second failure: next try 2 s later.
    expect((await delivery.retryDue(T0 + 2999))._unsafeUnwrap().leased).toBe(0);
    aws.state.failure = undefined;
    setNow(T0 + 3000);
    expect((await delivery.retryDue())._unsafeUnwrap()).toEqual({ leased: 1, delivered: 1, rescheduled: 0 });
    expect((await delivery.retryDue(T0 + 3_600_000))._unsafeUnwrap().leased).toBe(0);
    expect(aws.writes).toEqual(['my-bucket/events/lead1/65f000000000000000000001.json']);
    expect((await spool.count())._unsafeUnwrap()).toBe(0);
  });

  it('backs off exponentially from 1 s up to 5 minutes', () => {
    const { delivery } = setup();
    expect([1, 2, 3, 4, 9, 10, 30].map((n) => delivery.backoffMs(n))).toEqual([
      1000, 2000, 4000, 8000, 256_000, 300_000, 300_000,
    ]);
  });

  it('spools when the credential cannot be found, and delivers once it exists', async () => {
    const { aws, delivery } = setup();
    const config = { ...legacy, credential_id: 'later' };
    expect((await delivery.deliver(config, event(1)))._unsafeUnwrap()[0]).toMatchObject({
      status: 'spooled',
      error: 'credential later: No credential with ID later.',
    });
    credentials.later = credentials.c1!;
    expect((await delivery.retryDue(T0 + 1000))._unsafeUnwrap().delivered).toBe(1);
    expect(aws.writes).toHaveLength(1);
    delete credentials.later;
  });

  it('refuses an invalid configuration or event', async () => {
    const { delivery } = setup();
    expect((await delivery.deliver({ enabled: true, bucket: 'my-bucket' }, event(1)))._unsafeUnwrapErr().type).toBe(
      'Validation',
    );
    expect((await delivery.deliver(legacy, { id: 'a/b', lead_id: 'l' }))._unsafeUnwrapErr().type).toBe('Validation');
  });

  it('retries in batches and shares the spool with other features', async () => {
    const { aws, spool, delivery } = setup();
    (
      await spool.enqueue({ target: 'exports:x', key: 'k', payload: '', route: {}, dueAt: T0 }, { nowMs: T0 })
    )._unsafeUnwrap();
    aws.state.failure = failure('Unavailable');
    for (let n = 0; n < 5; n++) (await delivery.deliver(legacy, event(n)))._unsafeUnwrap();
    aws.state.failure = undefined;
    const small = createFirehoseDelivery({
      cloudStorage: { aws: aws.driver },
      spool,
      clock: { now: () => T0 },
      resolveCredential,
      batchSize: 2,
    });
    expect((await small.retryDue(T0 + 1000))._unsafeUnwrap()).toEqual({ leased: 5, delivered: 5, rescheduled: 0 });
    expect(new Set(aws.writes).size).toBe(5);
    expect((await spool.count({ target: 'exports:x' }))._unsafeUnwrap()).toBe(1);
  });

  it('lets several workers retry at once without writing anything twice', async () => {
    const { aws, spool, delivery } = setup();
    aws.state.failure = failure('Unavailable');
    for (let n = 0; n < 20; n++) (await delivery.deliver(legacy, event(n)))._unsafeUnwrap();
    aws.state.failure = undefined;
    // Without conditional writes, only the spool's leases keep the workers apart.
    const plain = { ...aws.driver, capabilities: { presignedUrls: false, conditionalWrites: false } };
    const worker = () =>
      createFirehoseDelivery({
        cloudStorage: { aws: plain },
        spool,
        clock: { now: () => T0 },
        resolveCredential,
        batchSize: 3,
      });
    const reports = await Promise.all([worker(), worker(), worker()].map((w) => w.retryDue(T0 + 1000)));
    expect(reports.reduce((n, r) => n + r._unsafeUnwrap().delivered, 0)).toBe(20);
    expect(aws.writes).toHaveLength(20);
    expect(new Set(aws.writes).size).toBe(20);
  });
});
