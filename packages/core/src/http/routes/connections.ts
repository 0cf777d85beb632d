import type { InvitationCreateBody } from '../../schemas/connections';
import type { LeadService } from '../../service';
import { json } from '../reply';
import { schemaRef } from '../schemas';
import type { Route } from '../types';

/** Account connections: invitations between accounts (#24.7). */
export function connectionRoutes(service: LeadService): Route[] {
  const { connections } = service;
  const settle = (action: 'accept' | 'decline'): Route => ({
    method: 'POST',
    path: `/connections/invitations/:id/${action}`,
    auth: 'key',
    summary: action === 'accept' ? 'Accept an invitation: the accounts are connected' : 'Decline an invitation',
    doc: {
      status: 200,
      response: schemaRef('Invitation'),
      errors: {
        404: "No such invitation received by this account: the same answer for another account's.",
        409: 'The invitation expired, or was already accepted or declined.',
      },
    },
    handle: (c) => connections[action](c.principal, c.params.id ?? '').map(json(200)),
  });
  return [
    {
      method: 'POST',
      path: '/connections/invitations',
      auth: 'key',
      readsBody: true,
      summary: 'Invite another account to connect as seller, buyer or both',
      doc: {
        body: schemaRef('InvitationCreateBody'),
        response: schemaRef('Invitation'),
        errors: { 422: 'The body is not valid.' },
      },
      // Handed on as is: the service checks the body against its schema.
      handle: (c) => connections.invite(c.principal, c.body as InvitationCreateBody).map(json(201)),
    },
    {
      method: 'GET',
      path: '/connections/invitations',
      auth: 'key',
      summary: "The account's invitations, sent and received, newest first",
      doc: { response: { type: 'array', items: schemaRef('Invitation') } },
      handle: (c) => connections.list(c.principal).map(json(200)),
    },
    settle('accept'),
    settle('decline'),
  ];
}
