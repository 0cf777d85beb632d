export { type CustomJsonConfig, customJsonModule } from './custom-json';
export { createIntegrationRegistry, type IntegrationRegistry } from './registry';
export { type ScriptedRecipient, scriptedRecipient } from './scripted';
