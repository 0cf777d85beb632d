import type { Result } from 'neverthrow';
import type { Issue } from '../errors';
import { EntityCreateBody, EntityUpdateBody } from '../schemas/entities';
import { validator } from '../schemas/define';

export { type EntityInput, MODULE_ID_PATTERN } from '../schemas/entities';

const create = validator(EntityCreateBody);
const update = validator(EntityUpdateBody);

/** Validates a create body: name, module_ids, source and recipient are required (source and recipient may be null). */
export function validateEntityCreate(body: unknown): Result<EntityCreateBody, Issue[]> {
  return create(body);
}

/** Validates an update body: any writable field may be given; absent fields keep their value. */
export function validateEntityUpdate(body: unknown): Result<EntityUpdateBody, Issue[]> {
  return update(body);
}
