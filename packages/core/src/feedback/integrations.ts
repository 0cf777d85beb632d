import { err, ok } from 'neverthrow';
import { isRecord } from '../validation';
import type { InboundFeedbackModule } from './types';

/** The name `POST /feedback/standard` selects: the generic payload. */
export const STANDARD_FEEDBACK_NAME = 'standard';

const MODULE_ID = /^platform-([a-z0-9][a-z0-9_-]{0,63})\.inbound\.feedback$/i;

/**
 * The built-in `platform-standard.inbound.feedback`: type, reason, occurred_at
 * and recipient_record_id as JSON, XML or form fields.
 */
export function standardFeedbackIntegration(): InboundFeedbackModule {
  return {
    id: `platform-${STANDARD_FEEDBACK_NAME}.inbound.feedback`,
    package_version: '1.0.0',
    parse: (body) => {
      if (body === undefined) return ok({});
      if (!isRecord(body)) return err('The body must be an object of feedback fields.');
      return ok({
        type: body.type,
        reason: body.reason,
        occurred_at: body.occurred_at,
        recipient_record_id: body.recipient_record_id,
      });
    },
    delivers: () => true,
  };
}

/** Inbound feedback integrations by recipient name, matched case-insensitively. */
export interface FeedbackIntegrationRegistry {
  /** The module `platform-<name>.inbound.feedback`, if installed. */
  get(name: string): InboundFeedbackModule | undefined;
  readonly ids: readonly string[];
}

/**
 * The built-in standard integration plus the host's; a host module with the
 * standard's ID replaces it. A module whose ID is not `platform-<name>.inbound.feedback`
 * is a programmer error.
 */
export function createFeedbackIntegrationRegistry(
  extra: readonly InboundFeedbackModule[] = [],
): FeedbackIntegrationRegistry {
  const modules = new Map<string, InboundFeedbackModule>();
  for (const module of [standardFeedbackIntegration(), ...extra]) {
    const name = MODULE_ID.exec(module.id)?.[1];
    if (name === undefined)
      throw new TypeError(
        `[leadroute] inbound feedback module ID ${module.id} must look like platform-<name>.inbound.feedback`,
      );
    modules.set(name.toLowerCase(), module);
  }
  return {
    get: (name) => modules.get(name.toLowerCase()),
    ids: [...modules.values()].map((m) => m.id),
  };
}

/** Whether `module` reports on deliveries by `moduleId` (its own `delivers`, else the same integration prefix). */
export function deliversFor(module: InboundFeedbackModule, moduleId: string | undefined): boolean {
  if (module.delivers) return module.delivers(moduleId ?? '');
  const prefix = `${module.id.slice(0, module.id.toLowerCase().indexOf('.inbound.'))}.`.toLowerCase();
  return (moduleId ?? '').toLowerCase().startsWith(prefix);
}
