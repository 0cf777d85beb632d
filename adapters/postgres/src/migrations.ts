/**
 * One step of the schema's history. Released migrations are never edited: a port
 * that needs a new table or column adds the next numbered entry to {@link migrations}.
 */
export interface Migration {
  /** Position in the history, starting at 1 with no gaps. */
  readonly version: number;
  /** What it does, recorded in `leadroute_migrations`. */
  readonly name: string;
  /**
   * The SQL, one or more statements, run inside the migration transaction.
   * @param s the quoted schema name, e.g. `"public"`, to qualify every table with
   */
  readonly up: (s: string) => string;
}

/**
 * The schema's history, oldest first. IDs are text (24 lowercase hex), times
 * timestamptz, lists text[] and nested records jsonb.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and API keys',
    up: (s) => `
      CREATE TABLE ${s}.accounts (
        id         text PRIMARY KEY,
        name       text NOT NULL,
        plan       text NOT NULL CHECK (plan IN ('free', 'paid')),
        time_zone  text NOT NULL,
        staff      boolean NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE ${s}.api_keys (
        hash       text PRIMARY KEY,
        account_id text NOT NULL,
        "user"     jsonb NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX api_keys_account_id ON ${s}.api_keys (account_id);
    `,
  },
  {
    version: 2,
    name: 'entities and entity aliases',
    up: (s) => `
      CREATE TABLE ${s}.entities (
        id                       text PRIMARY KEY,
        owner_account_id         text NOT NULL,
        name                     text NOT NULL,
        description              text NOT NULL,
        standard                 boolean NOT NULL,
        account                  boolean,
        pending                  boolean NOT NULL,
        connected                text,
        connected_account_id     text,
        deprecated               boolean NOT NULL,
        see                      text,
        field_suffix             text,
        invitation_id            text,
        invitation_expires_at    timestamptz,
        expired                  boolean NOT NULL,
        flow_ids                 text[] NOT NULL,
        logo_url                 text,
        module_ids               text[] NOT NULL,
        source                   text,
        recipient                text,
        time_zone                text,
        consent_certified_vendor boolean NOT NULL,
        website                  text,
        created_at               timestamptz NOT NULL,
        updated_at               timestamptz NOT NULL
      );
      CREATE INDEX entities_owner_created ON ${s}.entities (owner_account_id, created_at, id);
      CREATE TABLE ${s}.entity_aliases (
        id           text PRIMARY KEY,
        entity_id    text NOT NULL,
        entity_alias text NOT NULL,
        account_id   text NOT NULL,
        created_at   timestamptz NOT NULL,
        updated_at   timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX entity_aliases_account_entity ON ${s}.entity_aliases (account_id, entity_id);
      CREATE INDEX entity_aliases_account_created ON ${s}.entity_aliases (account_id, created_at, id);
    `,
  },
  {
    version: 3,
    name: 'delivery spool',
    up: (s) => `
      CREATE TABLE ${s}.spool (
        target       text NOT NULL,
        key          text NOT NULL,
        seq          bigint GENERATED ALWAYS AS IDENTITY,
        payload      text NOT NULL,
        route        jsonb NOT NULL,
        due_at       timestamptz NOT NULL,
        attempts     integer NOT NULL,
        enqueued_at  timestamptz NOT NULL,
        last_error   text,
        lease_id     text,
        leased_until timestamptz,
        delivered_at timestamptz,
        PRIMARY KEY (target, key)
      );
      CREATE INDEX spool_pending_due ON ${s}.spool (due_at, seq) WHERE delivered_at IS NULL;
      CREATE INDEX spool_delivered ON ${s}.spool (delivered_at) WHERE delivered_at IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'flows',
    // The configuration is one jsonb document (nested rule sets, sources, steps);
    // only what is looked up or compared on is a column. IDs sort bytewise
    // (COLLATE "C"), as the memory adapter sorts them, whatever the database locale.
    up: (s) => `
      CREATE TABLE ${s}.flows (
        id         text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL,
        version    integer NOT NULL,
        body       jsonb NOT NULL
      );
      CREATE INDEX flows_account_id ON ${s}.flows (account_id, id);
    `,
  },
  {
    version: 5,
    name: 'leads',
    up: (s) => `
      CREATE TABLE ${s}.leads (
        id                   text COLLATE "C" PRIMARY KEY,
        account_id           text COLLATE "C" NOT NULL,
        flow_id              text NOT NULL,
        flow_name            text NOT NULL,
        source_id            text NOT NULL,
        source_name          text NOT NULL,
        submission_timestamp timestamptz NOT NULL,
        fields               jsonb NOT NULL,
        purchase_price       double precision NOT NULL,
        latest_event_id      text NOT NULL,
        returned_at          timestamptz,
        expires_at           timestamptz NOT NULL
      );
      CREATE INDEX leads_expires_at ON ${s}.leads (expires_at);
    `,
  },
  {
    version: 6,
    name: 'events',
    // The record is the jsonb body; the columns beside it are what the events API
    // pages and filters on, what feedback finds a delivery by, and what the purge reads.
    up: (s) => `
      CREATE TABLE ${s}.events (
        id              text COLLATE "C" PRIMARY KEY,
        account_id      text COLLATE "C" NOT NULL,
        type            text NOT NULL,
        start_timestamp double precision NOT NULL,
        lead_id         text COLLATE "C" NOT NULL,
        flow_id         text COLLATE "C" NOT NULL,
        key             text,
        expires_at      timestamptz NOT NULL,
        body            jsonb NOT NULL
      );
      CREATE INDEX events_account_id ON ${s}.events (account_id, id);
      CREATE INDEX events_account_lead ON ${s}.events (account_id, lead_id, id);
      CREATE INDEX events_key ON ${s}.events (key) WHERE key IS NOT NULL;
      CREATE INDEX events_expires_at ON ${s}.events (expires_at);
    `,
  },
  {
    version: 7,
    name: 'cap and ping-limit counters',
    up: (s) => `
      CREATE TABLE ${s}.counters (
        key        text PRIMARY KEY,
        count      integer NOT NULL CHECK (count >= 0),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX counters_expires_at ON ${s}.counters (expires_at);
    `,
  },
  {
    version: 8,
    name: 'recipient credentials',
    up: (s) => `
      CREATE TABLE ${s}.credentials (
        id         text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL,
        name       text NOT NULL,
        type       text NOT NULL,
        package    text,
        username   text,
        password   text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX credentials_account_id ON ${s}.credentials (account_id, id);
    `,
  },
  {
    version: 9,
    name: 'statistics rollups',
    // One row per cell; the primary key is the cell, which is what ON CONFLICT sums into
    // and what a query for one account and a range of hours walks.
    up: (s) => `
      CREATE TABLE ${s}.rollups (
        account_id     text COLLATE "C" NOT NULL,
        hour           timestamptz NOT NULL,
        flow_id        text COLLATE "C" NOT NULL,
        source_id      text COLLATE "C" NOT NULL,
        recipient_id   text COLLATE "C" NOT NULL,
        step_id        text COLLATE "C" NOT NULL,
        kind           text NOT NULL,
        outcome        text NOT NULL,
        category       text NOT NULL,
        stage          text NOT NULL,
        count          bigint NOT NULL,
        cost           double precision NOT NULL,
        revenue        double precision NOT NULL,
        purchase_price double precision NOT NULL,
        PRIMARY KEY (account_id, hour, flow_id, source_id, recipient_id, step_id, kind, outcome, category, stage)
      );
      CREATE INDEX rollups_hour ON ${s}.rollups (hour, account_id);
    `,
  },
  {
    version: 10,
    name: 'lead search index',
    // Terms are computed by core's tokenizer (the same the memory index uses) and stored
    // as tsvector lexemes qualified by the account ("<account>.<term>"), so one GIN index
    // answers an account's prefix queries without walking other accounts' terms.
    // `seq` is the indexing order (re-indexing a lead makes it the newest).
    up: (s) => `
      CREATE TABLE ${s}.search_documents (
        account_id  text COLLATE "C" NOT NULL,
        lead_id     text COLLATE "C" NOT NULL,
        seq         bigint GENERATED BY DEFAULT AS IDENTITY,
        terms       tsvector NOT NULL,
        phrase_text text NOT NULL,
        sort_keys   jsonb NOT NULL,
        document    jsonb NOT NULL,
        expires_at  timestamptz NOT NULL,
        PRIMARY KEY (account_id, lead_id)
      );
      CREATE INDEX search_documents_terms ON ${s}.search_documents USING gin (terms);
      CREATE INDEX search_documents_account_seq ON ${s}.search_documents (account_id, seq);
      CREATE INDEX search_documents_expires_at ON ${s}.search_documents (expires_at);
    `,
  },
  {
    version: 11,
    name: 'background jobs',
    // Claimed with FOR UPDATE SKIP LOCKED off the partial index of pending jobs;
    // done and failed jobs stay (enqueuing the same kind and ID again is a no-op).
    up: (s) => `
      CREATE TABLE ${s}.jobs (
        kind         text COLLATE "C" NOT NULL,
        id           text COLLATE "C" NOT NULL,
        seq          bigint GENERATED ALWAYS AS IDENTITY,
        payload      jsonb NOT NULL,
        state        text NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
        due_at       timestamptz NOT NULL,
        attempts     integer NOT NULL,
        enqueued_at  timestamptz NOT NULL,
        lease_id     text,
        leased_until timestamptz,
        error        jsonb,
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX jobs_pending ON ${s}.jobs (kind, due_at, enqueued_at, seq) WHERE state = 'pending';
    `,
  },
  {
    version: 12,
    name: 'exports',
    // What an export job changes is a column of its own (status, progress, file, reason,
    // error) and the download log a jsonb array appended to in place; the rest of the
    // request is one jsonb document that never changes.
    up: (s) => `
      CREATE TABLE ${s}.exports (
        id            text COLLATE "C" PRIMARY KEY,
        account_id    text COLLATE "C" NOT NULL,
        expires_at    timestamptz NOT NULL,
        status        text NOT NULL,
        exported_docs double precision NOT NULL,
        file_name     jsonb,
        file_key      jsonb,
        reason        jsonb,
        error         jsonb,
        downloads     jsonb NOT NULL,
        request       jsonb NOT NULL
      );
      CREATE INDEX exports_account_id ON ${s}.exports (account_id, id);
    `,
  },
  {
    version: 13,
    name: 'consent certificates',
    // Claims are a jsonb array appended to in place and expires_at only ever moves
    // later (GREATEST), both in one UPDATE, so concurrent claims all land.
    up: (s) => `
      CREATE TABLE ${s}.certificates (
        id          text COLLATE "C" PRIMARY KEY,
        ping_token  text COLLATE "C" NOT NULL,
        expires_at  timestamptz NOT NULL,
        claims      jsonb NOT NULL,
        certificate jsonb NOT NULL
      );
      CREATE UNIQUE INDEX certificates_ping_token ON ${s}.certificates (ping_token);
    `,
  },
  {
    version: 14,
    name: 'alerts',
    // One alert per key (replaced whole by the detector); timelines, operator settings,
    // the sources each account has seen, and the named leases of detector passes.
    up: (s) => `
      CREATE TABLE ${s}.alerts (
        key        text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL,
        status     text NOT NULL,
        alert      jsonb NOT NULL
      );
      CREATE INDEX alerts_active ON ${s}.alerts (account_id) WHERE status = 'active';
      CREATE TABLE ${s}.alert_activity (
        seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id         text COLLATE "C" NOT NULL,
        account_id text COLLATE "C" NOT NULL,
        key        text COLLATE "C" NOT NULL,
        at         timestamptz NOT NULL,
        kind       text NOT NULL,
        visibility text NOT NULL,
        entry      jsonb NOT NULL
      );
      CREATE INDEX alert_activity_timeline ON ${s}.alert_activity (key, at DESC, id DESC);
      CREATE TABLE ${s}.alert_settings (
        scope     text PRIMARY KEY,
        overrides jsonb NOT NULL
      );
      CREATE TABLE ${s}.alert_seen_sources (
        account_id text COLLATE "C" NOT NULL,
        source_id  text COLLATE "C" NOT NULL,
        seen_at    timestamptz NOT NULL,
        PRIMARY KEY (account_id, source_id)
      );
      CREATE TABLE ${s}.leases (
        name  text PRIMARY KEY,
        owner text NOT NULL,
        until timestamptz NOT NULL
      );
    `,
  },
  {
    version: 15,
    name: 'idempotency keys of lead intake',
    up: (s) => `
      CREATE TABLE ${s}.idempotency_keys (
        account_id  text COLLATE "C" NOT NULL,
        flow_id     text COLLATE "C" NOT NULL,
        source_id   text COLLATE "C" NOT NULL,
        key         text COLLATE "C" NOT NULL,
        fingerprint text NOT NULL,
        answer      jsonb,
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL,
        PRIMARY KEY (account_id, flow_id, source_id, key)
      );
      CREATE INDEX idempotency_keys_expires_at ON ${s}.idempotency_keys (expires_at);
    `,
  },
  {
    version: 16,
    name: "accounts' notification address",
    up: (s) => `ALTER TABLE ${s}.accounts ADD COLUMN notification_email text;`,
  },
  {
    version: 17,
    name: 'events and leads partitioned by the week of their ID',
    // See partitionedByIdWeek. Both keys become (account_id, id), the key a table distributed by
    // account (Citus) needs; lookups by ID alone (feedback carries no API key) use the (id) index.
    up: (s) => `
      ${PARTITION_FUNCTIONS(s)}
      ${partitionedByIdWeek(s, 'events', {
        columns: `
          id              text COLLATE "C" NOT NULL,
          account_id      text COLLATE "C" NOT NULL,
          type            text NOT NULL,
          start_timestamp double precision NOT NULL,
          lead_id         text COLLATE "C" NOT NULL,
          flow_id         text COLLATE "C" NOT NULL,
          key             text,
          expires_at      timestamptz NOT NULL,
          body            jsonb NOT NULL`,
        names: 'id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, body',
        indexes: `
          CREATE INDEX events_id ON ${s}.events (id);
          CREATE INDEX events_account_lead ON ${s}.events (account_id, lead_id, id);
          CREATE INDEX events_key ON ${s}.events (key) WHERE key IS NOT NULL;
          CREATE INDEX events_expires_at ON ${s}.events (expires_at);`,
      })}
      ${partitionedByIdWeek(s, 'leads', {
        columns: `
          id                   text COLLATE "C" NOT NULL,
          account_id           text COLLATE "C" NOT NULL,
          flow_id              text NOT NULL,
          flow_name            text NOT NULL,
          source_id            text NOT NULL,
          source_name          text NOT NULL,
          submission_timestamp timestamptz NOT NULL,
          fields               jsonb NOT NULL,
          purchase_price       double precision NOT NULL,
          latest_event_id      text NOT NULL,
          returned_at          timestamptz,
          expires_at           timestamptz NOT NULL`,
        names:
          'id, account_id, flow_id, flow_name, source_id, source_name, submission_timestamp, fields, purchase_price, latest_event_id, returned_at, expires_at',
        indexes: `
          CREATE INDEX leads_id ON ${s}.leads (id);
          CREATE INDEX leads_expires_at ON ${s}.leads (expires_at);`,
      })}
    `,
  },
  {
    version: 18,
    name: 'statistics rollups per lead field value',
    // A rollup cell split by one lead field's value (#22.6); has_value tells a null value (no
    // such field) from '' in the primary key. rollup_fields holds the fields an account set
    // and when each began counting; no row means the defaults.
    up: (s) => `
      CREATE TABLE ${s}.field_rollups (
        account_id     text COLLATE "C" NOT NULL,
        field          text COLLATE "C" NOT NULL,
        hour           timestamptz NOT NULL,
        has_value      boolean NOT NULL,
        value          text COLLATE "C" NOT NULL,
        flow_id        text COLLATE "C" NOT NULL,
        source_id      text COLLATE "C" NOT NULL,
        recipient_id   text COLLATE "C" NOT NULL,
        step_id        text COLLATE "C" NOT NULL,
        kind           text NOT NULL,
        outcome        text NOT NULL,
        category       text NOT NULL,
        stage          text NOT NULL,
        count          bigint NOT NULL,
        cost           double precision NOT NULL,
        revenue        double precision NOT NULL,
        purchase_price double precision NOT NULL,
        PRIMARY KEY (account_id, field, hour, has_value, value, flow_id, source_id, recipient_id, step_id, kind, outcome, category, stage)
      );
      CREATE INDEX field_rollups_hour ON ${s}.field_rollups (hour, account_id);
      CREATE TABLE ${s}.rollup_fields (
        account_id text COLLATE "C" PRIMARY KEY,
        fields     jsonb NOT NULL
      );
    `,
  },
  {
    version: 19,
    name: 'statistics rollups per lead field value and UTC day',
    // The field cells of migration 18 summed by UTC day (#22.6), without step_id (a query that
    // sums cells over their IDs never reads it): a month by state reads about five times fewer
    // cells. Every write adds to both tables in one statement; this fills the day cells from the
    // hourly ones, with writers held off (SHARE) until the migration commits so none is missed.
    up: (s) => `
      CREATE TABLE ${s}.field_rollup_days (
        account_id     text COLLATE "C" NOT NULL,
        field          text COLLATE "C" NOT NULL,
        day            timestamptz NOT NULL,
        has_value      boolean NOT NULL,
        value          text COLLATE "C" NOT NULL,
        flow_id        text COLLATE "C" NOT NULL,
        source_id      text COLLATE "C" NOT NULL,
        recipient_id   text COLLATE "C" NOT NULL,
        kind           text NOT NULL,
        outcome        text NOT NULL,
        category       text NOT NULL,
        stage          text NOT NULL,
        count          bigint NOT NULL,
        cost           double precision NOT NULL,
        revenue        double precision NOT NULL,
        purchase_price double precision NOT NULL,
        PRIMARY KEY (account_id, field, day, has_value, value, flow_id, source_id, recipient_id, kind, outcome, category, stage)
      );
      LOCK TABLE ${s}.field_rollups IN SHARE MODE;
      INSERT INTO ${s}.field_rollup_days
        SELECT account_id, field, date_trunc('day', hour, 'UTC'), has_value, value, flow_id, source_id, recipient_id,
               kind, outcome, category, stage, sum(count), sum(cost), sum(revenue), sum(purchase_price)
        FROM ${s}.field_rollups
        GROUP BY account_id, field, date_trunc('day', hour, 'UTC'), has_value, value, flow_id, source_id, recipient_id,
                 kind, outcome, category, stage;
    `,
  },
  {
    version: 20,
    name: 'lead search lexemes by account tag, with short prefixes',
    // Lexemes name the account by a tag (eight hex digits of its MD5) instead of its ID, and
    // each term's first one and two characters are lexemes of their own ("<tag>:<prefix>"), so
    // a short prefix is one GIN entry instead of a range over thousands (#22.7; see
    // stores/search.ts). Rows of accounts that share a tag are told apart by account_id, which
    // every search reads. Writers are held off (SHARE) until this commits, so none is missed.
    up: (s) => `
      LOCK TABLE ${s}.search_documents IN SHARE MODE;
      UPDATE ${s}.search_documents AS d SET terms = array_to_tsvector(ARRAY(
        SELECT left(md5(d.account_id), 8) || '.' || term
          FROM unnest(tsvector_to_array(d.terms)) AS lexeme, substr(lexeme, length(d.account_id) + 2) AS term
        UNION
        SELECT left(md5(d.account_id), 8) || ':' || left(term, n)
          FROM unnest(tsvector_to_array(d.terms)) AS lexeme, substr(lexeme, length(d.account_id) + 2) AS term,
            generate_series(1, 2) AS n
      ));
    `,
  },
  {
    version: 21,
    name: 'event records as JSON text',
    // New events keep their record as JSON text in `doc`, body left NULL: jsonb parsed every
    // inserted record into its binary form (a third of the server's work on a batch of leads'
    // records, #22.3), and nothing queries into a record; it is only ever read whole. Rows
    // written before keep their jsonb body and are read as before. No rewrite: the column is
    // added empty, and NOT NULL comes off body.
    up: (s) => `
      ALTER TABLE ${s}.events ADD COLUMN doc text;
      ALTER TABLE ${s}.events ALTER COLUMN body DROP NOT NULL;
    `,
  },
];

/** A SQL string literal of `text`. */
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * The two functions partition maintenance calls (stores/partitions.ts), so that creating
 * and detaching a partition is one statement, checked and done under the locks it needs.
 *
 * `leadroute_ensure_week_partition(parent, day)` creates `<parent>_pYYYYMMDD`, holding
 * the IDs whose time prefix (8 hex digits of seconds) falls in the UTC week (Monday to
 * Sunday) of `day`, named by its Monday, unless it exists. Rows of that week already in
 * the default partition are moved into it first, so attaching it never fails; an advisory
 * lock makes concurrent callers create it once.
 *
 * `leadroute_detach_expired_partition(partition, before)` detaches a partition whose rows
 * all expired before `before` and answers how many rows it holds (the count VACUUM or
 * ANALYZE last recorded, an estimate for a partition untouched for months; counted when
 * none is recorded), or -1 when it kept it: a row still live, or a lock not granted
 * within 2 seconds (it then waits for the next purge rather than queue intake behind a
 * long read). The caller drops the detached table in a statement of its own: dropping
 * frees the table's files at commit, which takes a while for a big one, and the parent's
 * exclusive lock is held only for the detach.
 */
const PARTITION_FUNCTIONS = (s: string): string => `
  CREATE FUNCTION ${s}.leadroute_ensure_week_partition(parent regclass, day date) RETURNS boolean
  LANGUAGE plpgsql AS $fn$
  DECLARE
    monday date := date_trunc('week', day)::date;
    nsp    text;
    rel    text;
    part   text;
    lo     text := lpad(to_hex(extract(epoch FROM monday::timestamp AT TIME ZONE 'UTC')::bigint), 8, '0');
    hi     text := lpad(to_hex(extract(epoch FROM (monday + 7)::timestamp AT TIME ZONE 'UTC')::bigint), 8, '0');
  BEGIN
    SELECT n.nspname, c.relname INTO nsp, rel
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
    part := rel || '_p' || to_char(monday, 'YYYYMMDD');
    PERFORM pg_advisory_xact_lock(hashtext(nsp || '.' || part));
    IF to_regclass(format('%I.%I', nsp, part)) IS NOT NULL THEN
      RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS)', nsp, part, nsp, rel);
    EXECUTE format(
      'WITH moved AS (DELETE FROM %I.%I WHERE id >= %L AND id < %L RETURNING *) INSERT INTO %I.%I SELECT * FROM moved',
      nsp, rel || '_default', lo, hi, nsp, part);
    EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)', nsp, rel, nsp, part, lo, hi);
    RETURN true;
  END
  $fn$;

  CREATE FUNCTION ${s}.leadroute_detach_expired_partition(part regclass, before timestamptz) RETURNS bigint
  LANGUAGE plpgsql AS $fn$
  DECLARE
    parent regclass;
    n      bigint;
    latest timestamptz;
  BEGIN
    SELECT inhparent INTO parent FROM pg_inherits WHERE inhrelid = part;
    IF parent IS NULL THEN
      RETURN -1;
    END IF;
    PERFORM set_config('lock_timeout', '2000', true);
    EXECUTE format('LOCK TABLE %s IN SHARE MODE', part);
    EXECUTE format('SELECT max(expires_at) FROM %s', part) INTO latest;
    IF latest >= before THEN
      RETURN -1;
    END IF;
    SELECT reltuples::bigint INTO n FROM pg_class WHERE oid = part AND reltuples >= 0;
    IF n IS NULL THEN
      EXECUTE format('SELECT count(*) FROM %s', part) INTO n;
    END IF;
    EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, part);
    RETURN n;
  EXCEPTION WHEN lock_not_available THEN
    RETURN -1;
  END
  $fn$;
`;

/**
 * Rebuilds `table` (events or leads) as a table partitioned by RANGE of its ID, one
 * partition per UTC week (Monday to Sunday) of the ID's time prefix, plus a default
 * partition for IDs outside every week partition (imported or hand-made IDs, a clock far
 * off). The existing rows are copied over: a partition is made first for each week of the
 * last 120 days that has rows, and for the weeks of today and the next 7 days (by the
 * database clock); other rows land in the default partition. Indexes are built after the
 * copy, once per partition.
 *
 * Why weeks and not days (bench/partitions.bench.ts): a read that cannot name one
 * partition (an account's events page, a look-up by recipient reference) plans and probes
 * every partition; over 90 days that is 15 week partitions or 99 day ones, and an events
 * page took 1.5 ms against 11 ms (0.96 ms unpartitioned). The price is that rows stay on
 * disk (never returned) up to a week past expiry, until their week is dropped.
 *
 * Why the ID and not expires_at: every lookup by ID (a lead's feedback, a return, an
 * event by ID) then reads one partition, the events API's pages by ID skip the
 * partitions outside their range, and the ID stays unique (a partitioned table's keys
 * must contain the partition key). The retention purge checks a partition's own rows
 * before dropping it (see stores/partitions.ts).
 */
function partitionedByIdWeek(
  s: string,
  table: string,
  shape: { readonly columns: string; readonly names: string; readonly indexes: string },
): string {
  const old = `${s}.${table}_unpartitioned`;
  return `
    ALTER TABLE ${s}.${table} RENAME TO ${table}_unpartitioned;
    CREATE TABLE ${s}.${table} (${shape.columns}
    ) PARTITION BY RANGE (id);
    CREATE TABLE ${s}.${table}_default PARTITION OF ${s}.${table} DEFAULT;
    SELECT ${s}.leadroute_ensure_week_partition(${literal(`${s}.${table}`)}::regclass, day)
      FROM (
        SELECT DISTINCT (to_timestamp(('x' || lpad(left(id, 8), 16, '0'))::bit(64)::bigint) AT TIME ZONE 'UTC')::date AS day
          FROM ${old} WHERE id ~ '^[0-9a-f]{8}'
        UNION
        SELECT (now() AT TIME ZONE 'UTC')::date + n FROM generate_series(0, 7) AS n
      ) AS days
      WHERE day BETWEEN (now() AT TIME ZONE 'UTC')::date - 120 AND (now() AT TIME ZONE 'UTC')::date + 7
      ORDER BY day;
    INSERT INTO ${s}.${table} (${shape.names}) SELECT ${shape.names} FROM ${old};
    DROP TABLE ${old};
    ALTER TABLE ${s}.${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (account_id, id);
    ${shape.indexes}
  `;
}
