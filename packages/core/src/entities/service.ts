import type { EntityCreateBody, EntityUpdateBody } from '../schemas/entities';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { type Id, isId, newId } from '../ids';
import type { Clock } from '../ports/clock';
import type { Entity, EntityRecord } from '../ports/entities';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { ENTITY_DEFAULTS } from './defaults';
import { STANDARD_ENTITIES, standardEntity } from './standard';
import { validateEntityCreate, validateEntityUpdate } from './validate';

/** The `entities` sub-API: who sends, receives or takes part in lead transactions. */
export interface EntitiesApi {
  /** Standard entities, then the account's own entities, oldest first. */
  list(principal: Principal): ResultAsync<Entity[], LeadrouteError>;
  get(principal: Principal, id: string): ResultAsync<Entity, LeadrouteError>;
  /** `body` is checked again at run time: JavaScript callers and the HTTP API hand over what they were given. */
  create(principal: Principal, body: EntityCreateBody): ResultAsync<Entity, LeadrouteError>;
  /** Changes the writable fields given in `body`. Entities are deprecated, never deleted. */
  update(principal: Principal, id: string, body: EntityUpdateBody): ResultAsync<Entity, LeadrouteError>;
  /** The entity if the account can see it (standard or its own), else undefined. */
  visible(principal: Principal, id: Id): ResultAsync<Entity | undefined, LeadrouteError>;
}

/** The API view of a stored entity. */
export function toEntity(record: EntityRecord): Entity {
  const { owner_account_id: _owner, ...entity } = record;
  return entity;
}

export function createEntitiesApi(deps: {
  storage: Storage;
  clock: Clock;
  /** Told after an entity is updated: the service's cache of entity names forgets it. */
  renamed?: (id: string) => void;
}): EntitiesApi {
  const { storage, clock } = deps;

  const visible = (principal: Principal, id: Id): ResultAsync<Entity | undefined, LeadrouteError> => {
    const builtIn = standardEntity(id);
    if (builtIn) return okAsync(builtIn);
    return storage.entities
      .get(id)
      .map((record) => (record && record.owner_account_id === principal.account.id ? toEntity(record) : undefined));
  };

  const ownRecord = (principal: Principal, id: string): ResultAsync<EntityRecord, LeadrouteError> => {
    if (!isId(id)) return errAsync(errors.notFound('entity', id));
    if (standardEntity(id)) return errAsync(errors.forbidden('Standard entities cannot be changed.'));
    return storage.entities
      .get(id.toLowerCase())
      .andThen((record) =>
        record && record.owner_account_id === principal.account.id
          ? okAsync(record)
          : errAsync(errors.notFound('entity', id)),
      );
  };

  /** `see` must name another entity the account can see that is not itself deprecated. */
  const checkSee = (principal: Principal, selfId: Id | undefined, merged: { deprecated: boolean; see: Id | null }) => {
    if (merged.see === null) return okAsync(undefined);
    if (!merged.deprecated)
      return errAsync(errors.validation([{ path: '/see', message: 'see is only allowed on a deprecated entity.' }]));
    if (merged.see === selfId)
      return errAsync(errors.validation([{ path: '/see', message: 'see must name another entity.' }]));
    return visible(principal, merged.see).andThen((target) =>
      target && !target.deprecated
        ? okAsync(undefined)
        : errAsync(errors.validation([{ path: '/see', message: `see names no usable entity: ${merged.see}.` }])),
    );
  };

  /**
   * `flow_ids` for the caller (#19.12): the caller's flows that list the entity as a
   * source or in a step, derived on every read so it follows flow changes, and drawn from
   * the caller's own flows only, so another account's flows never show.
   */
  const flowIndex = (principal: Principal): ResultAsync<Map<string, string[]>, LeadrouteError> =>
    storage.flows.listByAccount(principal.account.id).map((flows) => {
      const index = new Map<string, string[]>();
      for (const flow of flows) {
        const listed = new Set([...flow.sources.map((s) => s.entity_id), ...flow.steps.map((s) => s.entity_id)]);
        for (const entityId of listed) {
          let ids = index.get(entityId);
          if (!ids) index.set(entityId, (ids = []));
          ids.push(flow.id);
        }
      }
      return index;
    });
  const withFlows =
    (index: Map<string, string[]>) =>
    (entity: Entity): Entity => ({ ...entity, flow_ids: index.get(entity.id) ?? [] });
  const withFlowsOne = (principal: Principal) => (entity: Entity) =>
    flowIndex(principal).map((index) => withFlows(index)(entity));

  return {
    visible,
    list(principal) {
      return storage.entities
        .listByOwner(principal.account.id)
        .andThen((own) =>
          flowIndex(principal).map((index) => [...STANDARD_ENTITIES, ...own.map(toEntity)].map(withFlows(index))),
        );
    },
    get(principal, id) {
      if (!isId(id)) return errAsync(errors.notFound('entity', id));
      return visible(principal, id.toLowerCase())
        .andThen((entity) => (entity ? okAsync(entity) : errAsync(errors.notFound('entity', id))))
        .andThen(withFlowsOne(principal));
    },
    create(principal, body) {
      const input = validateEntityCreate(body);
      if (input.isErr()) return errAsync(errors.validation(input.error, 'The entity is not valid.'));
      const now = clock.now();
      const at = isoTime(now);
      const fields = input.value;
      const record: EntityRecord = {
        ...ENTITY_DEFAULTS,
        ...fields,
        id: newId(now),
        owner_account_id: principal.account.id,
        name: fields.name.trim(),
        see: fields.see?.toLowerCase() ?? null,
        // Derived on read (#19.12), never stored.
        flow_ids: [],
        connected_account_id: fields.connected_account_id?.toLowerCase() ?? null,
        created_at: at,
        updated_at: at,
      };
      return checkSee(principal, record.id, record)
        .andThen(() => storage.entities.insert(record))
        .map(() => toEntity(record))
        .andThen(withFlowsOne(principal));
    },
    update(principal, id, body) {
      const input = validateEntityUpdate(body);
      if (input.isErr()) return errAsync(errors.validation(input.error, 'The entity is not valid.'));
      return ownRecord(principal, id).andThen((current) => {
        const changes = input.value;
        if (current.account && changes.connected_account_id !== undefined)
          return errAsync(
            errors.validation(
              [
                {
                  path: '/connected_account_id',
                  message:
                    'connected_account_id is set only on custom entities; an account entity stands for its own account.',
                },
              ],
              'The entity is not valid.',
            ),
          );
        const merged: EntityRecord = {
          ...current,
          ...changes,
          name: changes.name === undefined ? current.name : changes.name.trim(),
          // Un-deprecating an entity drops its replacement.
          see:
            changes.deprecated === false && changes.see === undefined
              ? null
              : changes.see === undefined
                ? current.see
                : (changes.see?.toLowerCase() ?? null),
          flow_ids: [],
          connected_account_id:
            changes.connected_account_id === undefined
              ? current.connected_account_id
              : (changes.connected_account_id?.toLowerCase() ?? null),
          updated_at: isoTime(clock.now()),
        };
        return checkSee(principal, merged.id, merged)
          .andThen(() => storage.entities.update(merged))
          .map(() => {
            deps.renamed?.(merged.id);
            return toEntity(merged);
          })
          .andThen(withFlowsOne(principal));
      });
    },
  };
}
