export { type CustomJsonConfig, customJsonModule } from './custom-json';
export { type BuiltInModuleDeps, createIntegrationRegistry, type IntegrationRegistry } from './registry';
export { type ScriptedRecipient, scriptedRecipient } from './scripted';
