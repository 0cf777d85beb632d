import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { isId, newId } from '../ids';
import type { Clock } from '../ports/clock';
import type { EntityAlias } from '../ports/entities';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { validator } from '../schemas/define';
import { EntityAliasCreateBody, EntityAliasUpdateBody } from '../schemas/entities';
import type { EntitiesApi } from './service';

/** The aliases sub-API: per-account display names for entities. */
export interface AliasesApi {
  list(principal: Principal): ResultAsync<EntityAlias[], LeadrouteError>;
  get(principal: Principal, id: string): ResultAsync<EntityAlias, LeadrouteError>;
  /** `body` is checked again at run time: JavaScript callers and the HTTP API hand over what they were given. */
  create(principal: Principal, body: EntityAliasCreateBody): ResultAsync<EntityAlias, LeadrouteError>;
  update(principal: Principal, id: string, body: EntityAliasUpdateBody): ResultAsync<EntityAlias, LeadrouteError>;
  /** Deletes the alias and returns it as it was. */
  remove(principal: Principal, id: string): ResultAsync<EntityAlias, LeadrouteError>;
}

const validateCreate = validator(EntityAliasCreateBody);
const validateUpdate = validator(EntityAliasUpdateBody);

export function createAliasesApi(deps: {
  storage: Storage;
  clock: Clock;
  entities: EntitiesApi;
  changed?: (accountId: string) => void;
}): AliasesApi {
  const { storage, clock, entities } = deps;

  const own = (principal: Principal, id: string): ResultAsync<EntityAlias, LeadrouteError> => {
    if (!isId(id)) return errAsync(errors.notFound('entity alias', id));
    // Another account's alias answers exactly as an unknown one.
    return storage.aliases
      .get(id.toLowerCase())
      .andThen((alias) =>
        alias && alias.account_id === principal.account.id
          ? okAsync(alias)
          : errAsync(errors.notFound('entity alias', id)),
      );
  };

  const checkEntity = (principal: Principal, entityId: string) =>
    entities
      .visible(principal, entityId)
      .andThen((entity) =>
        entity
          ? okAsync(undefined)
          : errAsync(
              errors.validation([
                { path: '/entity_id', message: `entity_id names no entity of this account: ${entityId}.` },
              ]),
            ),
      );

  const conflict = (e: LeadrouteError): LeadrouteError =>
    e.type === 'Conflict' ? errors.conflict('This account already has an alias for that entity.') : e;

  return {
    list: (principal) => storage.aliases.listByAccount(principal.account.id),
    get: own,
    create(principal, body) {
      const input = validateCreate(body);
      if (input.isErr()) return errAsync(errors.validation(input.error, 'The entity alias is not valid.'));
      const { entity_id, entity_alias } = input.value;
      const now = clock.now();
      const alias: EntityAlias = {
        id: newId(now),
        entity_id: entity_id.toLowerCase(),
        entity_alias: entity_alias.trim(),
        account_id: principal.account.id,
        created_at: isoTime(now),
        updated_at: isoTime(now),
      };
      return checkEntity(principal, alias.entity_id)
        .andThen(() => storage.aliases.insert(alias).mapErr(conflict))
        .map(() => (deps.changed?.(alias.account_id), alias));
    },
    update(principal, id, body) {
      const input = validateUpdate(body);
      if (input.isErr()) return errAsync(errors.validation(input.error, 'The entity alias is not valid.'));
      // A body that changes nothing is a client mistake (a misspelt field, a wrong body), not a success.
      if (Object.keys(input.value).length === 0)
        return errAsync(errors.badRequest('The body names no field to update; give entity_id, entity_alias or both.'));
      return own(principal, id).andThen((current) => {
        const next: EntityAlias = {
          ...current,
          entity_id: input.value.entity_id?.toLowerCase() ?? current.entity_id,
          entity_alias: input.value.entity_alias?.trim() ?? current.entity_alias,
          updated_at: isoTime(clock.now()),
        };
        return checkEntity(principal, next.entity_id)
          .andThen(() => storage.aliases.update(next).mapErr(conflict))
          .map(() => (deps.changed?.(next.account_id), next));
      });
    },
    remove(principal, id) {
      return own(principal, id).andThen((alias) =>
        storage.aliases.remove(alias.id).map(() => (deps.changed?.(alias.account_id), alias)),
      );
    },
  };
}
