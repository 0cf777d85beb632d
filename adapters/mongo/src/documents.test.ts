import { anAccount, anAlias, anApiKey, anEntity, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import {
  accountDocument,
  aliasDocument,
  apiKeyDocument,
  entityDocument,
  spoolDocument,
  toAccount,
  toAlias,
  toApiKey,
  toDate,
  toEntity,
  toLeasedSpoolItem,
  toSpoolItem,
} from './documents';

describe('documents', () => {
  it('store IDs as _id and times as Dates, and come back exactly as the ports gave them', () => {
    const account = anAccount();
    const doc = accountDocument(account);
    expect(doc).toMatchObject({ _id: account.id, created_at: new Date(account.created_at) });
    expect(doc).not.toHaveProperty('id');
    expect(toAccount(doc)).toEqual(account);

    const key = anApiKey(account.id);
    expect(apiKeyDocument(key).created_at).toBeInstanceOf(Date);
    expect(toApiKey(apiKeyDocument(key))).toEqual(key);

    const entity = anEntity(account.id, {
      invitation_id: freshId(),
      invitation_expires_at: '2026-03-04T05:06:07.089Z',
    });
    expect(entityDocument(entity)).toMatchObject({
      _id: entity.id,
      invitation_expires_at: new Date('2026-03-04T05:06:07.089Z'),
    });
    expect(toEntity(entityDocument(entity))).toEqual(entity);
    const bare = anEntity(account.id, {
      flow_ids: [],
      module_ids: [],
      logo_url: null,
      see: null,
      invitation_expires_at: null,
    });
    expect(toEntity(entityDocument(bare))).toEqual(bare);

    const alias = anAlias(account.id, entity.id);
    expect(toAlias(aliasDocument(alias))).toEqual(alias);
  });

  it('answer times in UTC whatever offset they were written with', () => {
    const account = anAccount({ created_at: '2026-01-01T01:00:00.000+01:00' });
    expect(toAccount(accountDocument(account)).created_at).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuse a time that is not one rather than store an invalid Date', () => {
    expect(() => toDate('yesterday')).toThrow(RangeError);
    expect(() => accountDocument(anAccount({ created_at: '' }))).toThrow(RangeError);
  });

  it('share no arrays or objects with what they were made from', () => {
    const entity = anEntity(freshId());
    const doc = entityDocument(entity);
    doc.flow_ids.push(freshId());
    expect(entity.flow_ids).toHaveLength(1);
    const back = toEntity(doc);
    (back.module_ids as string[]).push('x');
    expect(doc.module_ids).toHaveLength(1);
  });

  it('leave out fields some other writer added', () => {
    const entity = anEntity(freshId());
    expect(toEntity({ ...entityDocument(entity), legacy: true } as ReturnType<typeof entityDocument>)).toEqual(entity);
  });

  it('turn a spool entry into a pending document and back', () => {
    const entry = { target: 't', key: 'k', payload: 'p', route: { a: 'b' }, dueAt: 2000 };
    const doc = spoolDocument(entry, { nowMs: 1000, attempts: 1, lastError: 'down' });
    expect(doc).toStrictEqual({
      target: 't',
      key: 'k',
      payload: 'p',
      route: { a: 'b' },
      due_at: new Date(2000),
      attempts: 1,
      enqueued_at: new Date(1000),
      last_error: 'down',
      delivered_at: null,
    });
    expect(toSpoolItem(doc)).toEqual({ ...entry, attempts: 1, enqueuedAt: 1000, lastError: 'down' });
    const plain = spoolDocument(entry, { nowMs: 1000 });
    expect(plain).not.toHaveProperty('last_error');
    expect(toSpoolItem(plain)).not.toHaveProperty('lastError');
    expect(toLeasedSpoolItem({ ...plain, lease_id: 'L', leased_until: new Date(5000) })).toMatchObject({
      leaseId: 'L',
      leasedUntil: 5000,
      attempts: 0,
    });
    expect(() => toLeasedSpoolItem(plain)).toThrow(/without its lease/);
  });
});
