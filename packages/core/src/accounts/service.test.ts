import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../../adapters/memory/src';

import { createAccountsApi } from './service';

const api = () => createAccountsApi({ storage: memoryStorage(), clock: { now: () => Date.UTC(2026, 0, 15) } });
const paths = (result: { isErr(): boolean; _unsafeUnwrapErr(): unknown }) =>
  (result._unsafeUnwrapErr() as { issues: { path: string }[] }).issues.map((i) => i.path);

describe('accounts API inputs: checked by their schemas (schemas/accounts.ts), nothing stored on refusal', () => {
  it('names every bad field of a new account, nested ones at their full path', async () => {
    const accounts = api();
    const refused = await accounts.create({
      name: ' ',
      plan: 'gold' as 'paid',
      time_zone: 'Mars/Base',
      api_key: 'short',
      notification_email: 'nobody',
      user: { email: 'not-an-address' },
    });
    expect(paths(refused)).toEqual(
      expect.arrayContaining(['/name', '/plan', '/time_zone', '/api_key', '/notification_email', '/user/email']),
    );
    expect((refused._unsafeUnwrapErr() as unknown as { issues: { message: string }[] }).issues).toContainEqual({
      path: '/user/email',
      message: '/user/email must be an e-mail address.',
    });
  });

  it('checks changes and issued keys the same way, and accepts what it documents', async () => {
    const accounts = api();
    const { account } = (await accounts.create({ name: 'Acme', time_zone: 'America/Chicago' }))._unsafeUnwrap();
    expect(paths(await accounts.update(account.id, { name: '', notification_email: 'x' }))).toEqual([
      '/name',
      '/notification_email',
    ]);
    expect(paths(await accounts.issueKey(account.id, { api_key: 'x'.repeat(600) }))).toEqual(['/api_key']);
    const updated = (await accounts.update(account.id, { notification_email: 'ops@acme.example' }))._unsafeUnwrap();
    expect(updated.notification_email).toBe('ops@acme.example');
    expect((await accounts.update(account.id, { notification_email: null }))._unsafeUnwrap()).not.toHaveProperty(
      'notification_email',
    );
    expect((await accounts.get(account.id))._unsafeUnwrap().name).toBe('Acme');
  });
});
