export * from './accounts';
export * from './clock';
export * from './entities';
export * from './logger';
export * from './storage';
export * from './store-error';
