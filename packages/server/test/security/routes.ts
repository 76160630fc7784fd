/**
 * Every route the server answers, one line each: who may call it, the method, and the path as the
 * OpenAPI document writes it (`{param}` placeholders). The security suite runs its whole attack
 * table against each line, and fails when a documented route has no line here, so a new route is
 * covered by adding the one line.
 */
export type Side = 'merchant' | 'token' | 'operator' | 'public';

export interface RouteLine {
  side: Side;
  /** Accepts a version-1 signature: the interface's two GETs and the token endpoint only. */
  signatureV1?: true;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** A valid query string for routes that need one. */
  query?: string;
}

export const ROUTES: RouteLine[] = [
  { side: 'public', method: 'GET', path: '/api/v1/time' },
  { side: 'public', method: 'GET', path: '/healthz' },
  { side: 'public', method: 'GET', path: '/readyz' },
  { side: 'operator', method: 'GET', path: '/metrics' },
  { side: 'public', method: 'GET', path: '/pay/{id}/status' },
  { side: 'token', method: 'POST', path: '/api/v1/auth/token', signatureV1: true },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/wallets/', signatureV1: true },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/wallets', signatureV1: true },
  {
    side: 'merchant',
    method: 'GET',
    path: '/api/v1/cp/psp/hosted-pay/fees-preview',
    query: 'amount=100&currency=USDT',
    signatureV1: true,
  },
  { side: 'operator', method: 'POST', path: '/admin/v1/merchants' },
  { side: 'operator', method: 'GET', path: '/admin/v1/merchants' },
  { side: 'operator', method: 'GET', path: '/admin/v1/merchants/{id}' },
  { side: 'operator', method: 'PATCH', path: '/admin/v1/merchants/{id}' },
  { side: 'operator', method: 'POST', path: '/admin/v1/merchants/{id}/suspend' },
  { side: 'operator', method: 'POST', path: '/admin/v1/merchants/{id}/resume' },
  { side: 'operator', method: 'POST', path: '/admin/v1/merchants/{id}/keys' },
  { side: 'operator', method: 'GET', path: '/admin/v1/keys' },
  { side: 'operator', method: 'GET', path: '/admin/v1/keys/{id}' },
  { side: 'operator', method: 'PATCH', path: '/admin/v1/keys/{id}' },
  { side: 'operator', method: 'POST', path: '/admin/v1/keys/{id}/revoke' },
  { side: 'operator', method: 'POST', path: '/admin/v1/keys/{id}/rotate' },
  { side: 'operator', method: 'GET', path: '/admin/v1/keys/{id}/grants' },
  { side: 'operator', method: 'POST', path: '/admin/v1/keys/{id}/grants' },
  { side: 'operator', method: 'DELETE', path: '/admin/v1/keys/{id}/grants/{merchantId}' },
  { side: 'operator', method: 'POST', path: '/admin/v1/merchants/{id}/wallets' },
  { side: 'operator', method: 'GET', path: '/admin/v1/wallets' },
  { side: 'operator', method: 'GET', path: '/admin/v1/wallets/{id}' },
  { side: 'operator', method: 'POST', path: '/admin/v1/wallets/{id}/activate' },
  { side: 'operator', method: 'POST', path: '/admin/v1/wallets/{id}/deactivate' },
  { side: 'operator', method: 'GET', path: '/admin/v1/assets/{symbol}/networks' },
  { side: 'operator', method: 'POST', path: '/admin/v1/wallets/{id}/postings' },
  { side: 'operator', method: 'GET', path: '/admin/v1/wallets/{id}/postings' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/fees' },
  { side: 'operator', method: 'GET', path: '/admin/v1/fees' },
  { side: 'operator', method: 'DELETE', path: '/admin/v1/fees/{id}' },
  { side: 'operator', method: 'GET', path: '/admin/v1/fees/preview', query: 'merchantId=mer_x&currency=EUR&amount=1' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/settlement-currencies' },
  { side: 'operator', method: 'GET', path: '/admin/v1/settlement-currencies' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/rates' },
  { side: 'operator', method: 'GET', path: '/admin/v1/rates' },
  { side: 'operator', method: 'GET', path: '/admin/v1/audit' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/psp/hosted-pay' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/psp/hosted-pay' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/psp/hosted-pay/{id}' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/psp/hosted-pay/{id}/cancel' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/psp/hosted-pay/{id}/simulate-payment' },
  { side: 'operator', method: 'POST', path: '/admin/v1/transfers' },
  { side: 'operator', method: 'GET', path: '/admin/v1/transfers' },
  { side: 'operator', method: 'POST', path: '/admin/v1/transfers/{id}/retract' },
  { side: 'operator', method: 'POST', path: '/admin/v1/transfers/{id}/attach' },
  { side: 'operator', method: 'GET', path: '/admin/v1/checkouts' },
  { side: 'operator', method: 'GET', path: '/admin/v1/checkouts/{id}' },
  { side: 'operator', method: 'GET', path: '/admin/v1/checkouts/{id}/settle-preview' },
  { side: 'operator', method: 'POST', path: '/admin/v1/checkouts/{id}/settle' },
  { side: 'operator', method: 'POST', path: '/admin/v1/checkouts/{id}/reject' },
  { side: 'operator', method: 'GET', path: '/admin/v1/assets' },
  { side: 'operator', method: 'POST', path: '/admin/v1/assets' },
  { side: 'operator', method: 'GET', path: '/admin/v1/assets/{symbol}' },
  { side: 'operator', method: 'PATCH', path: '/admin/v1/assets/{symbol}' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chains' },
  { side: 'operator', method: 'POST', path: '/admin/v1/chains' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chains/{symbol}' },
  { side: 'operator', method: 'PATCH', path: '/admin/v1/chains/{symbol}' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/chains/{symbol}/xpub' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chains/{symbol}/xpub' },
  { side: 'operator', method: 'GET', path: '/admin/v1/networks' },
  { side: 'operator', method: 'POST', path: '/admin/v1/networks' },
  { side: 'operator', method: 'GET', path: '/admin/v1/networks/{id}' },
  { side: 'operator', method: 'PATCH', path: '/admin/v1/networks/{id}' },
  { side: 'operator', method: 'GET', path: '/admin/v1/addresses' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/events' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/events/stream', query: 'maxSeconds=0' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/events/{id}' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/events/{id}/redeliver' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/webhook-endpoints' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/webhook-endpoints' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/webhook-endpoints/{id}' },
  { side: 'merchant', method: 'PATCH', path: '/api/v1/cp/webhook-endpoints/{id}' },
  { side: 'merchant', method: 'DELETE', path: '/api/v1/cp/webhook-endpoints/{id}' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/webhook-endpoints/{id}/rotate-secret' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/webhook-endpoints/{id}/test' },
  { side: 'merchant', method: 'GET', path: '/api/v1/cp/webhook-endpoints/{id}/deliveries' },
  { side: 'merchant', method: 'POST', path: '/api/v1/cp/webhook-endpoints/{id}/replay' },
  { side: 'operator', method: 'GET', path: '/admin/v1/webhook-endpoints' },
  { side: 'operator', method: 'GET', path: '/admin/v1/webhook-endpoints/{id}' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chain-watches' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/chains/{symbol}/watch' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chains/{symbol}/watch' },
  { side: 'operator', method: 'DELETE', path: '/admin/v1/chains/{symbol}/watch' },
  { side: 'operator', method: 'PUT', path: '/admin/v1/chains/{symbol}/hot-wallet' },
  { side: 'operator', method: 'GET', path: '/admin/v1/chains/{symbol}/hot-wallet' },
  { side: 'operator', method: 'DELETE', path: '/admin/v1/chains/{symbol}/hot-wallet' },
  { side: 'operator', method: 'GET', path: '/admin/v1/webhook-endpoints/{id}/deliveries' },
  { side: 'operator', method: 'POST', path: '/admin/v1/webhook-endpoints/{id}/redeliver' },
  { side: 'operator', method: 'GET', path: '/admin/v1/stats' },
  { side: 'public', method: 'POST', path: '/console/session' },
  { side: 'public', method: 'GET', path: '/console/session' },
  { side: 'public', method: 'DELETE', path: '/console/session' },
];

/** The path with placeholders filled (ids need not exist: authentication comes first), and the query. */
export function concrete(route: RouteLine): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'symbol' ? 'USDT' : `${name}_x`));
  return route.query === undefined ? path : `${path}?${route.query}`;
}
