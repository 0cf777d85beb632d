import type {
  ActivityPage,
  ActivityQueryParams,
  Alert,
  AlertSettings,
  Entity,
  EntityAlias,
  EntityAliasCreateBody,
  EntityAliasUpdateBody,
  EntityCreateBody,
  EntityUpdateBody,
  EventQueryBody,
  EventQueryParams,
  EventRecord,
  Export,
  ExportCreateBody,
  ExportFileLink,
  ExportListQueryParams,
  FeedbackBody,
  FeedbackResult,
  FirehoseQueryParams,
  FirehoseValidation,
  Flow,
  IntakeResult,
  Invitation,
  InvitationCreateBody,
  Problem,
  RecipientFeedbackBody,
  RecipientFeedbackQuery,
  SearchQueryParams,
  SearchResult,
  StatsQueryParams,
  StatsRow,
} from '@leadroute/core';
import { errAsync, ResultAsync } from 'neverthrow';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the API is mounted, e.g. `http://localhost:3000`. */
  readonly baseUrl: string;
  /** Sent as HTTP Basic `API:<key>`. Feedback and intake need none. */
  readonly apiKey?: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Abort a request after this long. @default 30000 */
  readonly timeoutMs?: number;
}

/**
 * What a call can fail with: an HTTP error answer (with its problem details when it sent some), or no answer at all.
 */
export type ClientError =
  | { readonly type: 'http'; readonly status: number; readonly problem?: Problem; readonly body: string }
  | { readonly type: 'network'; readonly message: string; readonly cause: unknown };

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** A request as the client sends it. */
export interface ClientRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

function search(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const segment = (value: string): string => encodeURIComponent(value);

/** Options of `leads.submit` and `leads.ping`. */
export interface IntakeCallOptions {
  /** The source's posting secret, sent as `X-Posting-Secret`, for a source that requires one. */
  readonly postingSecret?: string;
}

const intakePath = (flowId: string, sourceId: string, kind: 'submit' | 'ping'): string =>
  `/flows/${segment(flowId)}/sources/${segment(sourceId)}/${kind}`;

const intakeHeaders = (intake: IntakeCallOptions): Record<string, string> =>
  intake.postingSecret === undefined ? {} : { 'x-posting-secret': intake.postingSecret };

/** UTF-8 then base64 with what browsers, edge runtimes and Node all have (no `Buffer`). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A typed client for the whole Leadroute API. Every method answers a neverthrow
 * `ResultAsync`: the parsed body, or a {@link ClientError}; nothing throws.
 * @example
 * const api = createClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.LEADROUTE_API_KEY });
 * const entities = await api.entities.list();
 * if (entities.isOk()) console.log(entities.value.map((e) => e.name));
 */
export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth: Record<string, string> = options.apiKey
    ? { authorization: `Basic ${base64(`API:${options.apiKey}`)}` }
    : {};

  /** Sends any request; the building block of every method, and a way to reach routes the client does not wrap. */
  const send = (req: ClientRequest): ResultAsync<{ res: Response; text: string }, ClientError> => {
    const headers: Record<string, string> = { accept: 'application/json', ...auth, ...req.headers };
    if (req.body !== undefined) headers['content-type'] ??= 'application/json';
    const sent = ResultAsync.fromPromise(
      doFetch(`${base}${req.path}${search(req.query)}`, {
        method: req.method,
        headers,
        ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      }).then(async (res) => ({ res, text: await res.text() })),
      (cause): ClientError => ({
        type: 'network',
        message: cause instanceof Error ? cause.message : String(cause),
        cause,
      }),
    );
    return sent;
  };

  const failure = (res: Response, text: string, parsed: unknown): ClientError => {
    const problem = res.headers.get('content-type')?.startsWith('application/problem+json')
      ? (parsed as Problem)
      : undefined;
    return { type: 'http', status: res.status, body: text, ...(problem ? { problem } : {}) };
  };

  /** Sends any request and parses a JSON answer; the building block of every method. */
  const request = <T>(req: ClientRequest): ResultAsync<T, ClientError> =>
    send(req).andThen(({ res, text }) => {
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.ok) return ResultAsync.fromSafePromise(Promise.resolve(parsed as T));
      return errAsync<T, ClientError>(failure(res, text, parsed));
    });

  /** Sends a request whose answer is text (CSV). */
  const requestText = (req: ClientRequest): ResultAsync<string, ClientError> =>
    send(req).andThen(({ res, text }) => {
      if (res.ok) return ResultAsync.fromSafePromise(Promise.resolve(text));
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return errAsync<string, ClientError>(failure(res, text, parsed));
    });

  return {
    request,
    entities: {
      list: () => request<Entity[]>({ method: 'GET', path: '/entities' }),
      get: (id: string) => request<Entity>({ method: 'GET', path: `/entities/${segment(id)}` }),
      create: (body: EntityCreateBody) => request<Entity>({ method: 'POST', path: '/entities', body }),
      update: (id: string, body: EntityUpdateBody) =>
        request<Entity>({ method: 'PUT', path: `/entities/${segment(id)}`, body }),
    },
    /** Account connections (#24.7): invitations to connect as seller, buyer or both. */
    connections: {
      invite: (body: InvitationCreateBody) =>
        request<Invitation>({ method: 'POST', path: '/connections/invitations', body }),
      /** This account's invitations, sent and received, newest first. */
      invitations: () => request<Invitation[]>({ method: 'GET', path: '/connections/invitations' }),
      accept: (invitationId: string) =>
        request<Invitation>({ method: 'POST', path: `/connections/invitations/${segment(invitationId)}/accept` }),
      decline: (invitationId: string) =>
        request<Invitation>({ method: 'POST', path: `/connections/invitations/${segment(invitationId)}/decline` }),
    },
    aliases: {
      list: () => request<EntityAlias[]>({ method: 'GET', path: '/entity-aliases' }),
      get: (id: string) => request<EntityAlias>({ method: 'GET', path: `/entity-aliases/${segment(id)}` }),
      create: (body: EntityAliasCreateBody) => request<EntityAlias>({ method: 'POST', path: '/entity-aliases', body }),
      update: (id: string, body: EntityAliasUpdateBody) =>
        request<EntityAlias>({ method: 'PUT', path: `/entity-aliases/${segment(id)}`, body }),
      remove: (id: string) => request<EntityAlias>({ method: 'DELETE', path: `/entity-aliases/${segment(id)}` }),
    },
    flows: {
      list: () => request<Flow[]>({ method: 'GET', path: '/flows' }),
      get: (id: string) => request<Flow>({ method: 'GET', path: `/flows/${segment(id)}` }),
      create: (body: Record<string, unknown>) => request<Flow>({ method: 'POST', path: '/flows', body }),
      update: (id: string, body: Record<string, unknown>) =>
        request<Flow>({ method: 'PUT', path: `/flows/${segment(id)}`, body }),
    },
    leads: {
      submit: (flowId: string, sourceId: string, lead: Record<string, unknown>, intake: IntakeCallOptions = {}) =>
        request<IntakeResult>({
          method: 'POST',
          path: intakePath(flowId, sourceId, 'submit'),
          body: lead,
          headers: intakeHeaders(intake),
        }),
      ping: (flowId: string, sourceId: string, lead: Record<string, unknown>, intake: IntakeCallOptions = {}) =>
        request<IntakeResult>({
          method: 'POST',
          path: intakePath(flowId, sourceId, 'ping'),
          body: lead,
          headers: intakeHeaders(intake),
        }),
    },
    events: {
      list: (query: EventQueryParams = {}) => request<EventRecord[]>({ method: 'GET', path: '/events', query }),
      query: (body: EventQueryBody) => request<EventRecord[]>({ method: 'POST', path: '/events', body }),
      get: (id: string) => request<EventRecord>({ method: 'GET', path: `/events/${segment(id)}` }),
      /** Statistics rows (JSON). */
      stats: (query: StatsQueryParams = {}) => request<StatsRow[]>({ method: 'GET', path: '/events/stats', query }),
      /** Statistics as CSV with a header row. */
      statsCsv: (query: StatsQueryParams = {}) =>
        requestText({ method: 'GET', path: '/events/stats', query, headers: { accept: 'text/csv' } }),
    },
    /**
     * Recipients' feedback: no API key; the delivery event ID authorizes it. A 201 means processed: check `outcome`.
     */
    feedback: {
      submit: (eventId: string, body: FeedbackBody) =>
        request<FeedbackResult>({ method: 'POST', path: '/feedback', query: { event_id: eventId }, body }),
      /** The standard integration reads {@link RecipientFeedbackBody}; others read their own format. */
      byRecipient: (
        recipientName: string,
        body: RecipientFeedbackBody | Record<string, unknown>,
        query: RecipientFeedbackQuery = {},
      ) => request<FeedbackResult>({ method: 'POST', path: `/feedback/${segment(recipientName)}`, body, query }),
    },
    exports: {
      list: (query: ExportListQueryParams = {}) => request<Export[]>({ method: 'GET', path: '/exports', query }),
      create: (body: ExportCreateBody) => request<Export>({ method: 'POST', path: '/exports', body }),
      get: (id: string) => request<Export>({ method: 'GET', path: `/exports/${segment(id)}` }),
      /** A download link valid for 10 seconds: call it just before downloading. */
      fileLink: (id: string) => request<ExportFileLink>({ method: 'GET', path: `/exports/${segment(id)}/file` }),
    },
    search: {
      leads: (query: SearchQueryParams) => request<SearchResult>({ method: 'GET', path: '/search/leads', query }),
    },
    alerts: {
      list: () => request<Alert[]>({ method: 'GET', path: '/alerts' }),
      settings: () => request<AlertSettings>({ method: 'GET', path: '/alerts/settings' }),
      activity: (key: string, query: ActivityQueryParams = {}) =>
        request<ActivityPage>({ method: 'GET', path: `/alerts/${segment(key)}/activity`, query }),
    },
    firehose: {
      validate: (query: FirehoseQueryParams) =>
        request<FirehoseValidation>({ method: 'GET', path: '/firehose', query }),
    },
  };
}

/** The client's type, for passing it around. */
export type LeadrouteClient = ReturnType<typeof createClient>;
