import type { TypedFlow, TypedFlowUpdate } from './builder';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import type { EntitiesApi } from '../entities/service';
import { errors, type Issue, type LeadrouteError } from '../errors';
import { type Id, isId, newId } from '../ids';
import type { IntegrationRegistry } from '../integrations/registry';
import type { Clock } from '../ports/clock';
import type { Entity } from '../ports/entities';
import type { Storage } from '../ports/storage';
import { keepSecrets, withoutSecrets } from '../firehose/secrets';
import { isoTime } from '../time';
import { isRecord } from '../validation';
import { sealPostingSecrets, showPostingSecrets } from './posting-secret';
import type { Flow, FlowConfig, FlowRecord } from '../domain/flows';
import { validateFlow } from './validate';

/** The `flows` sub-API: flow configuration. */
export interface FlowsApi {
  list(principal: Principal): ResultAsync<Flow[], LeadrouteError>;
  get(principal: Principal, id: string): ResultAsync<Flow, LeadrouteError>;
  /** `body` is checked again at run time: JavaScript callers and the HTTP API hand over what they were given. */
  create(principal: Principal, body: TypedFlow): ResultAsync<Flow, LeadrouteError>;
  /**
   * Replaces the flow's configuration; step and limit IDs named in the body are kept.
   * Optimistic concurrency: a body `version` other than the stored one is a Conflict,
   * `conditions.ifMatch` naming none of it is PreconditionFailed, both carrying the
   * current version. Without either the write applies to whatever version is stored
   * (last write wins), except that a write racing another between read and write is a Conflict.
   */
  update(
    principal: Principal,
    id: string,
    /** A typed flow, or a flow as read (GET, change, PUT). */
    body: TypedFlowUpdate | Flow,
    conditions?: FlowWriteConditions,
  ): ResultAsync<Flow, LeadrouteError>;
}

/** Preconditions of a flow write, from the HTTP `If-Match` header or an embedding caller. */
export interface FlowWriteConditions {
  /** Versions the caller's copy may be at (`If-Match: "3", "4"`), or `'any'` for `If-Match: *` (the flow exists). */
  readonly ifMatch?: readonly number[] | 'any';
}

export function toFlow(record: FlowRecord): Flow {
  const { account_id: _account, ...stored } = record;
  // An inline firehose connection string is write-only; posting secrets show only as required or not.
  const flow = showPostingSecrets(stored);
  return flow.firehose ? { ...flow, firehose: withoutSecrets(flow.firehose) } : flow;
}

export function createFlowsApi(deps: {
  storage: Storage;
  clock: Clock;
  entities: EntitiesApi;
  integrations: IntegrationRegistry;
  /** Called with a flow's ID once this service has changed it (what keeps flows for intake forgets it). */
  changed?: (id: string) => void;
}): FlowsApi {
  const { storage, clock, entities, integrations } = deps;

  /** An entity that stands for another account is usable only once the accounts are connected (#24.7). */
  const notConnected = (entity: Entity, path: string): Issue[] =>
    entity.invitation_id !== null && (entity.pending || entity.expired || entity.connected === null)
      ? [
          {
            path,
            message: `${entity.name} is not connected: its invitation is ${entity.pending ? 'still pending' : entity.expired ? 'expired' : 'declined'}.`,
          },
        ]
      : [];

  /** Checks what validation cannot see alone: entities the account can use, installed modules, its credentials. */
  const checkReferences = (principal: Principal, config: FlowConfig): ResultAsync<FlowConfig, LeadrouteError> => {
    const checks: Promise<Issue[]>[] = [
      ...config.sources.map(async (source, i): Promise<Issue[]> => {
        const entity = await entities.visible(principal, source.entity_id);
        if (entity.isErr()) throw entity.error;
        if (!entity.value)
          return [{ path: `/sources/${i}/entity_id`, message: `No entity ${source.entity_id} in this account.` }];
        const issues: Issue[] = notConnected(entity.value, `/sources/${i}/entity_id`);
        if (issues.length === 0 && entity.value.source === null)
          issues.push({
            path: `/sources/${i}/entity_id`,
            message: `${entity.value.name} cannot send leads (its source is null).`,
          });
        const to = source.feedback?.forward_to;
        if (to) {
          const path = `/sources/${i}/feedback/forward_to`;
          const module = integrations.outbound(to.module_id);
          if (!module)
            issues.push({ path: `${path}/module_id`, message: `No outbound module ${to.module_id} is installed.` });
          else
            issues.push(
              ...(module.validateConfig?.(to.config) ?? []).map((x) => ({ ...x, path: `${path}/config${x.path}` })),
            );
        }
        return issues;
      }),
      ...config.steps.map(async (step, i): Promise<Issue[]> => {
        const path = `/steps/${i}`;
        const entity = await entities.visible(principal, step.entity_id);
        if (entity.isErr()) throw entity.error;
        if (!entity.value)
          return [{ path: `${path}/entity_id`, message: `No entity ${step.entity_id} in this account.` }];
        if (step.type === 'filter') return [];
        const issues: Issue[] = notConnected(entity.value, `${path}/entity_id`);
        if (entity.value.recipient === null)
          issues.push({
            path: `${path}/entity_id`,
            message: `${entity.value.name} cannot receive leads (its recipient is null).`,
          });
        const module = integrations.outbound(step.module_id);
        if (!module)
          issues.push({ path: `${path}/module_id`, message: `No outbound module ${step.module_id} is installed.` });
        else
          issues.push(
            ...(module.validateConfig?.(step.config) ?? []).map((x) => ({ ...x, path: `${path}/config${x.path}` })),
          );
        const allowed = entity.value.module_ids;
        if (allowed.length > 0 && !allowed.some((m) => m.toLowerCase() === step.module_id.toLowerCase()))
          issues.push({
            path: `${path}/module_id`,
            message: `${entity.value.name} may only use ${allowed.join(', ')}.`,
          });
        if (step.credential_id) {
          const credential = await storage.credentials.get(step.credential_id);
          if (credential.isErr()) throw credential.error;
          if (!credential.value || credential.value.account_id !== principal.account.id)
            issues.push({
              path: `${path}/credential_id`,
              message: `No credential ${step.credential_id} in this account.`,
            });
        }
        return issues;
      }),
      // A firehose writes with the account's own stored credentials only.
      ...Object.entries(config.firehose?.services ?? {}).map(async ([name, service]): Promise<Issue[]> => {
        const id = service?.credential_id;
        if (!id) return [];
        const credential = isId(id) ? await storage.credentials.get(id.toLowerCase()) : undefined;
        if (credential?.isErr()) throw credential.error;
        const found = credential?.isOk() ? credential.value : undefined;
        const path = `/firehose/services/${name}/credential_id`;
        if (!found || found.account_id !== principal.account.id)
          return [{ path, message: `No credential ${id} in this account.` }];
        return found.type.toLowerCase() === name
          ? []
          : [
              {
                path,
                message: `Credential ${id} is of type ${found.type}; the ${name} firehose needs one of type ${name}.`,
              },
            ];
      }),
    ];
    return ResultAsync.fromPromise(Promise.all(checks), (e) =>
      e && typeof e === 'object' && 'type' in e
        ? (e as LeadrouteError)
        : errors.storageFailure('Cannot check flow references.', e),
    ).andThen((found) => {
      const issues = found.flat();
      return issues.length > 0 ? errAsync(errors.validation(issues, 'The flow is not valid.')) : okAsync(config);
    });
  };

  const own = (principal: Principal, id: string): ResultAsync<FlowRecord, LeadrouteError> => {
    if (!isId(id)) return errAsync(errors.notFound('flow', id));
    return storage.flows
      .get(id.toLowerCase())
      .andThen((flow) =>
        flow && flow.account_id === principal.account.id ? okAsync(flow) : errAsync(errors.notFound('flow', id)),
      );
  };

  const validate = (principal: Principal, body: unknown, current?: FlowConfig) => {
    const config = validateFlow(body, {
      now: clock.now(),
      timeZone: principal.account.time_zone,
      ...(current ? { current } : {}),
    });
    return config.isErr()
      ? errAsync(errors.validation(config.error, 'The flow is not valid.'))
      : checkReferences(principal, config.value);
  };

  return {
    list: (principal) => storage.flows.listByAccount(principal.account.id).map((flows) => flows.map(toFlow)),
    get: (principal, id) => own(principal, id).map(toFlow),
    create(principal, body) {
      return validate(principal, body).andThen((validated) => {
        const now = clock.now();
        const { config, revealed } = sealPostingSecrets(validated);
        const record: FlowRecord = {
          ...config,
          id: newId(now) as Id,
          account_id: principal.account.id,
          version: 1,
          created_at: isoTime(now),
          updated_at: isoTime(now),
        };
        return storage.flows.insert(record).map(() => showPostingSecrets(toFlow(record), revealed));
      });
    },
    update(principal, id, body, conditions = {}) {
      const { ifMatch } = conditions;
      const claimed = isRecord(body) ? body.version : undefined;
      if (claimed !== undefined && !(Number.isSafeInteger(claimed) && (claimed as number) >= 1))
        return errAsync(
          errors.validation(
            [{ path: '/version', message: 'version must be the positive integer the flow was read at.' }],
            'The flow is not valid.',
          ),
        );
      const stale = (version: number): LeadrouteError =>
        ifMatch === undefined
          ? errors.conflict(`The flow is at version ${version}; read it again and retry.`, version)
          : errors.preconditionFailed(
              `If-Match names none of the flow's current version ${version}; read it again and retry.`,
              version,
            );
      const attempt = (current: FlowRecord): ResultAsync<Flow, LeadrouteError> => {
        // Preconditions before validation (RFC 9110 §13.2.2): a stale copy is refused whatever it holds.
        if (ifMatch !== undefined && ifMatch !== 'any' && !ifMatch.includes(current.version))
          return errAsync(
            errors.preconditionFailed(
              `If-Match names none of the flow's current version ${current.version}.`,
              current.version,
            ),
          );
        if (claimed !== undefined && claimed !== current.version)
          return errAsync(
            errors.conflict(
              `The body is version ${claimed as number} of the flow; it is at version ${current.version}.`,
              current.version,
            ),
          );
        return validate(principal, keepSecrets(body, current.firehose), current).andThen((validated) => {
          const { config, revealed } = sealPostingSecrets(validated);
          const record: FlowRecord = {
            ...config,
            id: current.id,
            account_id: current.account_id,
            version: current.version + 1,
            created_at: current.created_at,
            updated_at: isoTime(clock.now()),
          };
          // The store writes only while the flow is still at the version checked above, so of two
          // writers from one version exactly one gets through; the other learns the version now.
          return storage.flows
            .update(record, current.version)
            .orElse((e) =>
              e.type === 'Conflict'
                ? storage.flows.get(current.id).andThen((now) => errAsync(stale(now?.version ?? current.version + 1)))
                : errAsync(e),
            )
            .map(() => showPostingSecrets(toFlow(record), revealed));
        });
      };
      // Once the attempt is over, written or refused, intake reads the flow afresh: a refusal may have found it
      // changed by another writer (forgetting it before the write could let a lead keep the old flow again).
      return own(principal, id).andThen((current) => {
        const forget = () => deps.changed?.(current.id);
        return attempt(current).andTee(forget).orTee(forget);
      });
    },
  };
}
