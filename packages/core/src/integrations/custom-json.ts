import type { OutboundModule } from '../ports/integrations';
import type { CustomHttpConfig } from '../schemas/integrations';
import { httpModule } from './custom-http';

export { EVENT_ID_HEADER } from './custom-http';

/**
 * Configuration of `platform-custom.outbound.json` and of the form, XML and GET deliveries
 * (`schemas/integrations.ts`): an interface, so type errors name it.
 */
export interface CustomJsonConfig extends CustomHttpConfig {}

/** Configuration of `platform-custom.outbound.get`: the lead goes in the query, so there is no body or method. */
export interface CustomGetConfig extends Omit<CustomHttpConfig, 'method' | 'body_template' | 'xml_root'> {}

/** The built-in JSON webhook: POSTs the mapped lead as JSON to `config.url` and reads the outcome from the answer. */
export function customJsonModule(): OutboundModule {
  return httpModule('json');
}
