export { EVENT_ID_HEADER, HTTP_MODULES, type HttpFormat, httpModule, RETRY_PAUSE_MS } from './custom-http';
export { type CustomGetConfig, type CustomJsonConfig, customJsonModule } from './custom-json';
export { type BuiltInModuleDeps, createIntegrationRegistry, type IntegrationRegistry } from './registry';
export { SCRIPTED_RECIPIENT_ID, type ScriptedRecipient, scriptedRecipient } from './scripted';
