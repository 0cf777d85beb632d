import type { OutboundModule } from '../ports/integrations';
import { customJsonModule } from './custom-json';

/** Outbound modules by ID, matched case-insensitively. */
export interface IntegrationRegistry {
  outbound(id: string): OutboundModule | undefined;
  readonly outboundIds: readonly string[];
}

/** The built-in modules plus the host's; a host module replaces a built-in of the same ID. */
export function createIntegrationRegistry(extra: readonly OutboundModule[] = []): IntegrationRegistry {
  const modules = new Map<string, OutboundModule>();
  for (const module of [customJsonModule(), ...extra]) modules.set(module.id.toLowerCase(), module);
  return {
    outbound: (id) => modules.get(id.toLowerCase()),
    outboundIds: [...modules.values()].map((m) => m.id),
  };
}
