import type { Entity } from '../ports/entities';
import { ENTITY_DEFAULTS } from './defaults';

const BUILT = '2024-01-01T00:00:00.000Z';

function standard(
  id: string,
  fields: Pick<Entity, 'name' | 'description' | 'module_ids' | 'source' | 'recipient'>,
): Entity {
  return { ...ENTITY_DEFAULTS, id, ...fields, standard: true, account: null, created_at: BUILT, updated_at: BUILT };
}

/**
 * Built-in entities every account sees. They cannot be changed; their
 * integrations, criteria, caps and pricing are configured per flow.
 */
export const STANDARD_ENTITIES: readonly Entity[] = [
  standard('5f0000000000000000000001', {
    name: 'Web Form',
    description: 'Leads captured by your own web forms.',
    module_ids: [],
    source: 'form',
    recipient: null,
  }),
  standard('5f0000000000000000000002', {
    name: 'Custom JSON Webhook',
    description: 'Delivers the mapped lead as JSON to any HTTP endpoint.',
    module_ids: ['platform-custom.outbound.json'],
    source: null,
    recipient: 'other',
  }),
  standard('5f0000000000000000000003', {
    name: 'Consent Certificate',
    description: 'Checks and claims the consent certificate sent with the lead.',
    module_ids: ['platform-certificate.outbound.claim'],
    source: null,
    recipient: 'enhancement',
  }),
];

const byId = new Map(STANDARD_ENTITIES.map((e) => [e.id.toLowerCase(), e]));

/** The standard entity with this ID, if it is one. */
export function standardEntity(id: string): Entity | undefined {
  return byId.get(id.toLowerCase());
}
