import type { LeadService } from '../../service';
import { json } from '../reply';
import type { Route } from '../types';

/** Entities (`/entities`) and entity aliases (`/entity-aliases`). */
export function entityRoutes(service: LeadService): Route[] {
  const { entities, aliases } = service;
  return [
    { method: 'GET', path: '/entities', auth: 'key', summary: 'List the entities the account can see', handle: (c) => entities.list(c.principal).map(json(200)) },
    { method: 'POST', path: '/entities', auth: 'key', readsBody: true, summary: 'Create an entity', handle: (c) => entities.create(c.principal, c.body).map(json(201)) },
    { method: 'GET', path: '/entities/:id', auth: 'key', summary: 'Get an entity', handle: (c) => entities.get(c.principal, c.params.id ?? '').map(json(200)) },
    {
      method: 'PUT',
      path: '/entities/:id',
      auth: 'key',
      readsBody: true,
      summary: 'Update or deprecate an entity',
      handle: (c) => entities.update(c.principal, c.params.id ?? '', c.body).map(json(200)),
    },
    { method: 'GET', path: '/entity-aliases', auth: 'key', summary: "List the account's entity aliases", handle: (c) => aliases.list(c.principal).map(json(200)) },
    { method: 'POST', path: '/entity-aliases', auth: 'key', readsBody: true, summary: 'Create an entity alias', handle: (c) => aliases.create(c.principal, c.body).map(json(201)) },
    { method: 'GET', path: '/entity-aliases/:id', auth: 'key', summary: 'Get an entity alias', handle: (c) => aliases.get(c.principal, c.params.id ?? '').map(json(200)) },
    {
      method: 'PUT',
      path: '/entity-aliases/:id',
      auth: 'key',
      readsBody: true,
      summary: 'Update an entity alias',
      handle: (c) => aliases.update(c.principal, c.params.id ?? '', c.body).map(json(200)),
    },
    {
      method: 'DELETE',
      path: '/entity-aliases/:id',
      auth: 'key',
      summary: 'Delete an entity alias; answers the deleted alias',
      handle: (c) => aliases.remove(c.principal, c.params.id ?? '').map(json(200)),
    },
  ];
}
