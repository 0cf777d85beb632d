import { type Static, Type } from '@sinclair/typebox';
import { S } from './define';

/**
 * The inputs of the accounts API (`service.accounts`), which belongs to the host: there is no
 * HTTP route for them, but they are checked like a body, by these schemas (`deepValidator`).
 */

/** Shortest API key a host may choose. */
export const MIN_API_KEY_LENGTH = 16;

const email = (what: string) =>
  Type.String({
    format: 'email',
    maxLength: 254,
    'x-message': `must be ${what} (local part of at most 64 characters, at most 254 in all)`,
  });

/** The user a key belongs to: who requested an export, who acknowledged an alert. */
export const UserInput = Type.Object(
  {
    first_name: Type.Optional(
      Type.String({ maxLength: 200, 'x-message': 'must be a string of at most 200 characters' }),
    ),
    last_name: Type.Optional(
      Type.String({ maxLength: 200, 'x-message': 'must be a string of at most 200 characters' }),
    ),
    email: Type.Optional(
      Type.Union([Type.Literal(''), email('an e-mail address')], { 'x-message': 'must be an e-mail address' }),
    ),
    sso_id: Type.Optional(Type.String({ maxLength: 200, 'x-message': 'must be a string of at most 200 characters' })),
  },
  { 'x-message': 'must be an object' },
);

const apiKey = Type.String({
  minLength: MIN_API_KEY_LENGTH,
  maxLength: 512,
  'x-message': `must be from ${MIN_API_KEY_LENGTH} to 512 characters`,
  description: 'Use this API key instead of generating one (e.g. from configuration).',
});
const name = Type.String({
  maxLength: 200,
  pattern: '\\S',
  'x-message': 'must be a non-empty string of at most 200 characters',
});
const timeZone = Type.String({
  format: 'iana-time-zone',
  'x-message': 'must be an IANA time zone such as America/New_York',
});
const notificationEmail = email('an e-mail address');

/** What the host gives to create an account (`service.accounts.create`). */
export const NewAccountInput = Type.Object({
  name,
  plan: Type.Optional(S.oneOf(['free', 'paid'] as const)),
  /** IANA time zone. @default 'UTC' */
  time_zone: Type.Optional(timeZone),
  /**
   * @deprecated Kept for stored accounts; it grants nothing. Operator staff are not accounts:
   * configure them with the service's `operatorStaff` option (#19.6).
   */
  staff: Type.Optional(S.boolean()),
  api_key: Type.Optional(apiKey),
  /** Where the account's alert e-mail goes when its alert settings name no `email_to` (#19.13). */
  notification_email: Type.Optional(notificationEmail),
  /** The user the first API key belongs to. */
  user: Type.Optional(UserInput),
});
export type NewAccount = Static<typeof NewAccountInput>;

/** What `service.accounts.update` can change; `notification_email: null` removes it. */
export const AccountChangesInput = Type.Object({
  name: Type.Optional(name),
  time_zone: Type.Optional(timeZone),
  notification_email: Type.Optional(S.nullable(notificationEmail, 'must be an e-mail address or null')),
});
export type AccountChanges = Static<typeof AccountChangesInput>;

/** `service.accounts.issueKey`'s options. */
export const IssueKeyInput = Type.Object({ user: Type.Optional(UserInput), api_key: Type.Optional(apiKey) });
export type IssueKeyOptions = Static<typeof IssueKeyInput>;
