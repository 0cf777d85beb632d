import type { LeadService } from '../../service';
import { json } from '../reply';
import { schemaRef } from '../schemas';
import type {
  EntityAliasCreateBody,
  EntityAliasUpdateBody,
  EntityCreateBody,
  EntityUpdateBody,
} from '../../schemas/entities';
import type { Route } from '../types';
// Bodies are cast to the input types only to be handed on: the entity service validates them.

/** Entities (`/entities`) and entity aliases (`/entity-aliases`). */
export function entityRoutes(service: LeadService): Route[] {
  const { entities, aliases } = service;
  return [
    {
      method: 'GET',
      path: '/entities',
      auth: 'key',
      summary: 'List the entities the account can see',
      doc: { response: { type: 'array', items: schemaRef('Entity') } },
      handle: (c) => entities.list(c.principal).map(json(200)),
    },
    {
      method: 'POST',
      path: '/entities',
      auth: 'key',
      readsBody: true,
      summary: 'Create an entity',
      doc: {
        body: schemaRef('EntityCreateBody'),
        response: schemaRef('Entity'),
        errors: { 422: 'The body is not valid (flow_ids must name flows of this account).' },
      },
      handle: (c) => entities.create(c.principal, c.body as EntityCreateBody).map(json(201)),
    },
    {
      method: 'GET',
      path: '/entities/:id',
      auth: 'key',
      summary: 'Get an entity',
      doc: { response: schemaRef('Entity') },
      handle: (c) => entities.get(c.principal, c.params.id ?? '').map(json(200)),
    },
    {
      method: 'PUT',
      path: '/entities/:id',
      auth: 'key',
      readsBody: true,
      summary: 'Update or deprecate an entity',
      doc: {
        body: schemaRef('EntityUpdateBody'),
        response: schemaRef('Entity'),
        errors: {
          403: 'Standard entities cannot be changed.',
          422: 'The body is not valid (flow_ids must name flows of this account).',
        },
      },
      handle: (c) => entities.update(c.principal, c.params.id ?? '', c.body as EntityUpdateBody).map(json(200)),
    },
    {
      method: 'GET',
      path: '/entity-aliases',
      auth: 'key',
      summary: "List the account's entity aliases",
      doc: { response: { type: 'array', items: schemaRef('EntityAlias') } },
      handle: (c) => aliases.list(c.principal).map(json(200)),
    },
    {
      method: 'POST',
      path: '/entity-aliases',
      auth: 'key',
      readsBody: true,
      summary: 'Create an entity alias',
      doc: {
        body: schemaRef('EntityAliasCreateBody'),
        response: schemaRef('EntityAlias'),
        errors: { 409: 'The account already has an alias for that entity.' },
      },
      handle: (c) => aliases.create(c.principal, c.body as EntityAliasCreateBody).map(json(201)),
    },
    {
      method: 'GET',
      path: '/entity-aliases/:id',
      auth: 'key',
      summary: 'Get an entity alias',
      doc: { response: schemaRef('EntityAlias') },
      handle: (c) => aliases.get(c.principal, c.params.id ?? '').map(json(200)),
    },
    {
      method: 'PUT',
      path: '/entity-aliases/:id',
      auth: 'key',
      readsBody: true,
      summary: 'Update an entity alias',
      doc: {
        body: schemaRef('EntityAliasUpdateBody'),
        response: schemaRef('EntityAlias'),
        errors: {
          400: 'The body cannot be parsed as its Content-Type, or names no field to update (entity_id, entity_alias).',
          409: 'The account already has an alias for that entity.',
        },
      },
      handle: (c) => aliases.update(c.principal, c.params.id ?? '', c.body as EntityAliasUpdateBody).map(json(200)),
    },
    {
      method: 'DELETE',
      path: '/entity-aliases/:id',
      auth: 'key',
      summary: 'Delete an entity alias; answers the deleted alias',
      doc: { response: schemaRef('EntityAlias') },
      handle: (c) => aliases.remove(c.principal, c.params.id ?? '').map(json(200)),
    },
  ];
}
