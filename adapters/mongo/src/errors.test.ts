import { anAccount } from '@leadroute/testkit';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { attempt, isDuplicateKey, toStoreError } from './errors';
import { mongoStorage } from './index';

// What the server sends for a unique-index violation, as the driver surfaces it.
const duplicateKey = () =>
  Object.assign(
    new Error(
      'E11000 duplicate key error collection: leadroute.api_keys index: api_keys_hash_unique dup key: { hash: "ab" }',
    ),
    {
      code: 11000,
    },
  );

describe('driver errors', () => {
  it('turns a duplicate key into a Conflict naming the index, keeping the driver error', () => {
    const cause = duplicateKey();
    expect(isDuplicateKey(cause)).toBe(true);
    expect(toStoreError('insert API key', cause)).toEqual({
      type: 'Conflict',
      message: '[leadroute] [mongo] insert API key: already exists (api_keys_hash_unique).',
      cause,
    });
  });

  it('turns anything else into a StorageFailure, keeping the driver error', () => {
    const cause = Object.assign(new Error('not primary'), { code: 10107 });
    expect(isDuplicateKey(cause)).toBe(false);
    expect(toStoreError('get entity', cause)).toEqual({
      type: 'StorageFailure',
      message: '[leadroute] [mongo] get entity failed: not primary',
      cause,
    });
    expect(toStoreError('get entity', 'weird')).toMatchObject({
      type: 'StorageFailure',
      message: '[leadroute] [mongo] get entity failed: weird',
    });
  });

  it('catches a synchronous throw as well as a rejection', async () => {
    const thrown = await attempt('convert', () => {
      throw new RangeError('not an ISO time');
    });
    expect(thrown._unsafeUnwrapErr()).toMatchObject({ type: 'StorageFailure', cause: expect.any(RangeError) });
    expect((await attempt('fine', async () => 1))._unsafeUnwrap()).toBe(1);
  });
});

// A real driver with no server behind it: every port answers a StorageFailure value.
describe('mongo: an unreachable server', () => {
  it('#18.10 answers StorageUnavailable (503, retryable) carrying the driver error when nothing listens', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/leadroute_test', {
      serverSelectionTimeoutMS: 300,
      connectTimeoutMS: 300,
    });
    try {
      const storage = mongoStorage({ client });
      const error = (await storage.accounts.get(anAccount().id))._unsafeUnwrapErr();
      expect(error.type).toBe('StorageUnavailable');
      expect(error.message).toMatch(/^\[leadroute\] \[mongo\] get account failed: the server is unavailable/);
      expect((error as { cause?: Error }).cause?.name).toBe('MongoServerSelectionError');
      expect((await storage.ensureIndexes())._unsafeUnwrapErr().type).toBe('StorageUnavailable');
      // The spool port knows only StorageFailure.
      expect((await storage.spool.count())._unsafeUnwrapErr().type).toBe('StorageFailure');
    } finally {
      await client.close();
    }
  });
});
