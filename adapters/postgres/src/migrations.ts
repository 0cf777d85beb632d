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
];
