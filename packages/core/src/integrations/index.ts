export { type CustomJsonConfig, customJsonModule } from './custom-json';
export { type BuiltInModuleDeps, createIntegrationRegistry, type IntegrationRegistry } from './registry';
export { SCRIPTED_RECIPIENT_ID, type ScriptedRecipient, scriptedRecipient } from './scripted';
