import { keyIdOf, hashApiKey } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDINGS, type Binding, startBinding } from '../support/servers';
import { call, type HostWorld, hostWorld } from './host-fixture';

// API keys issued, rotated and revoked through the service API, as a host's admin screen
// would, with each key's effect checked through both bindings over real sockets.
describe.each(BINDINGS)('#21.10 API keys issued, rotated and revoked (%s)', (name) => {
  let world: HostWorld;
  let binding: Binding;

  beforeAll(async () => {
    world = await hostWorld();
    binding = await startBinding(name, world.service);
  });
  afterAll(() => binding.close());

  const flows = (key: string) => call(`${binding.url}/flows`, { headers: { authorization: `Bearer ${key}` } });

  it('#21.10 issues a second key that works beside the first, and lists keys by ID only', async () => {
    const issued = (
      await world.service.accounts.issueKey(world.accountId, { user: { first_name: 'Ops', email: 'ops@example.com' } })
    )._unsafeUnwrap();
    expect(issued.key_id).toBe(keyIdOf(hashApiKey(issued.api_key)));
    expect((await flows(issued.api_key)).status).toBe(200);
    expect((await flows(world.apiKey)).status).toBe(200);
    const listed = (await world.service.accounts.listKeys(world.accountId))._unsafeUnwrap();
    expect(listed.map((k) => k.key_id)).toEqual(
      expect.arrayContaining([issued.key_id, keyIdOf(hashApiKey(world.apiKey))]),
    );
    expect(JSON.stringify(listed)).not.toContain(issued.api_key);
    expect(listed.find((k) => k.key_id === issued.key_id)?.user).toMatchObject({
      first_name: 'Ops',
      email: 'ops@example.com',
    });
  });

  it('#21.10 rotates a key: the old one answers 401 at once, the new one works for the same user', async () => {
    const old = (await world.service.accounts.issueKey(world.accountId))._unsafeUnwrap();
    const rotated = (await world.service.accounts.rotateKey(world.accountId, old.key_id))._unsafeUnwrap();
    expect(rotated.api_key).not.toBe(old.api_key);
    expect((await flows(old.api_key)).status).toBe(401);
    expect((await flows(rotated.api_key)).status).toBe(200);
  });

  it('#21.10 revokes a key; another account cannot revoke or rotate it', async () => {
    const key = (await world.service.accounts.issueKey(world.accountId))._unsafeUnwrap();
    const other = (await world.service.accounts.create({ name: 'Other' }))._unsafeUnwrap();
    expect((await world.service.accounts.revokeKey(other.account.id, key.key_id))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
    expect((await world.service.accounts.rotateKey(other.account.id, key.key_id))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
    expect((await flows(key.api_key)).status).toBe(200);
    (await world.service.accounts.revokeKey(world.accountId, key.key_id))._unsafeUnwrap();
    expect((await flows(key.api_key)).status).toBe(401);
    expect((await world.service.accounts.revokeKey(world.accountId, key.key_id))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
  });

  it('#21.10 refuses a short chosen key and an unknown account', async () => {
    expect((await world.service.accounts.issueKey(world.accountId, { api_key: 'short' }))._unsafeUnwrapErr().type).toBe(
      'Validation',
    );
    expect((await world.service.accounts.issueKey('0'.repeat(24)))._unsafeUnwrapErr().type).toBe('NotFound');
    expect((await world.service.accounts.principalFor('0'.repeat(24)))._unsafeUnwrapErr().type).toBe('NotFound');
  });
});
