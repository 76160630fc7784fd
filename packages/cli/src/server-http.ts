// Loaded only by `serve`: see @hostpay/server/app for why the HTTP layer is a separate entry.
export { buildApp, startServer } from '@hostpay/server/app';
