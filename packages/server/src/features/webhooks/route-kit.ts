import type { AdminIdempotency } from '../../http/idempotency.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { merchantScope as scope } from '../../http/merchant-scope.js';
import type { Provisions } from '../../feature-kit/feature.js';

// Named through the registry: importing feature.ts, which imports the routes built on this kit, would be a loop.
type Webhooks = Provisions['webhooks'];

export { BASE_ERRORS, MerchantQuery, ok, okPage, send, WRITE_ERRORS } from '../../http/merchant-scope.js';

/** What the events and webhook-endpoint routes need beyond the common route context. */
export interface WebhookRouteContext extends RouteContext {
  webhooks: Webhooks;
  idempotency?: AdminIdempotency | undefined;
}

/** The shared merchant scope with the small bodies these routes take. */
export const merchantScope = (app: TypedApp, ctx: WebhookRouteContext, example: string) =>
  scope(app, ctx, 8 * 1024, example);
