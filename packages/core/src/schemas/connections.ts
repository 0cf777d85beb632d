import { type Static, Type } from '@sinclair/typebox';
import { S } from './define';

/** Longest and default life of an invitation, in days. */
export const INVITATION_MAX_DAYS = 30;
export const INVITATION_DEFAULT_DAYS = 7;

/** POST /connections/invitations: invite another account to connect. */
export const InvitationCreateBody = Type.Object(
  {
    account_id: Type.Optional(
      Object.assign(S.id(), { description: 'The account invited (or give email). Whether it exists is not told.' }),
    ),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        'x-message': 'must be an e-mail address',
        description:
          'Invite the account whose notification address this is (or give account_id); the address is told by e-mail. Whether one exists is not told.',
      }),
    ),
    role: Type.Union([Type.Literal('seller'), Type.Literal('buyer'), Type.Literal('both')], {
      'x-message': 'must be seller, buyer or both',
      description:
        'What the invited account is to you: seller (it sends you leads: a source of your flows), buyer (it takes your leads: a recipient), or both.',
    }),
    name: Type.Optional(S.text(200, { required: true, description: 'Your name for it. Default: Invited account.' })),
    expires_in_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: INVITATION_MAX_DAYS,
        'x-message': `must be an integer from 1 to ${INVITATION_MAX_DAYS}`,
        description: `Days the invitation can be accepted. Default ${INVITATION_DEFAULT_DAYS}.`,
      }),
    ),
  },
  {
    title: 'InvitationCreateBody',
    examples: [
      { account_id: '5fd4e3b7c1a2b3c4d5e6f70a', role: 'seller', name: 'East Leads' },
      { email: 'partners@eastleads.example', role: 'seller' },
    ],
  },
);
export type InvitationCreateBody = Static<typeof InvitationCreateBody>;

const status = Type.Union(
  ['pending', 'connected', 'declined', 'expired'].map((s) => Type.Literal(s)),
  { description: 'pending until accepted or declined, or until it expires.' },
);

/** An invitation as each side sees it: the entity that stands for the other account in this one. */
export const InvitationSchema = Type.Object(
  {
    invitation_id: S.id(),
    direction: Type.Union([Type.Literal('sent'), Type.Literal('received')]),
    status,
    role: Type.Union([Type.Literal('seller'), Type.Literal('buyer'), Type.Literal('both')], {
      description: 'What the other account is to this one.',
    }),
    entity_id: Object.assign(S.id(), { description: 'The entity standing for the other account in this account.' }),
    name: Type.String(),
    expires_at: S.dateTime(),
  },
  {
    title: 'Invitation',
    examples: [
      {
        invitation_id: '5fd4e3b7c1a2b3c4d5e6f70b',
        direction: 'received',
        status: 'pending',
        role: 'buyer',
        entity_id: '5fd4e3b7c1a2b3c4d5e6f70c',
        name: 'Acme Insurance',
        expires_at: '2026-03-08T15:04:05.000Z',
      },
    ],
  },
);
export type Invitation = Static<typeof InvitationSchema>;
