export * from './errors.js';
export * from './decimal.js';
export * from './exact-json.js';
export * from './signing.js';
export * from './schemas.js';
export * from './checkout.js';
export * from './checkout-status.js';
export * from './webhooks.js';
