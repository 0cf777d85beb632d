import { certificateClaimModule } from '../certificates/claim-module';
import type { CertificatesApi } from '../certificates/service';
import type { OutboundModule } from '../ports/integrations';
import { httpModule } from './custom-http';
import { customJsonModule } from './custom-json';

/** Outbound modules by ID, matched case-insensitively. */
export interface IntegrationRegistry {
  outbound(id: string): OutboundModule | undefined;
  readonly outboundIds: readonly string[];
}

/** What built-in modules need from the service. */
export interface BuiltInModuleDeps {
  /** Enables the consent-certificate step `platform-certificate.outbound.claim`. */
  readonly certificates?: Pick<CertificatesApi, 'claim'>;
}

/** The built-in modules plus the host's; a host module replaces a built-in of the same ID. */
export function createIntegrationRegistry(
  extra: readonly OutboundModule[] = [],
  builtIns: BuiltInModuleDeps = {},
): IntegrationRegistry {
  const modules = new Map<string, OutboundModule>();
  const defaults = [
    customJsonModule(),
    httpModule('form'),
    httpModule('xml'),
    httpModule('get'),
    ...(builtIns.certificates ? [certificateClaimModule(builtIns.certificates)] : []),
  ];
  for (const module of [...defaults, ...extra]) modules.set(module.id.toLowerCase(), module);
  return {
    outbound: (id) => modules.get(id.toLowerCase()),
    outboundIds: [...modules.values()].map((m) => m.id),
  };
}
