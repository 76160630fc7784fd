// Loaded only by `serve`: see @hostpay/server/app for why the HTTP layer is a separate entry.
export { createServer } from '@hostpay/server/app';
