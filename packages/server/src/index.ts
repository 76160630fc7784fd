export { loadConfig, configTable, ConfigSchema, type Config } from './config.js';
export { HostpayError, fail, isHostpayError } from './errors.js';
export { createServices, openStore, redactUrl, sqliteFile, type Services, type AdminServices, type AuditContext, type CreatedApiKey, type KeySettings, type KeyView, type MerchantView, type FeeTierRequest, type Page, type PageRequest, type MerchantServices } from './services/index.js';
export { seedDemo, type DemoCredentials } from './demo/seed.js';
export { migrate, schemaVersion } from './store/migrate.js';
export { openSqliteStore } from './store/sqlite.js';
export type { Store } from './store/store.js';
export type { PostingKind } from './store/schema.js';
export { POSTING_KINDS } from './services/ledger-service.js';
