import type { Metrics } from '../observability/metrics.js';
import type { RedisState } from '../cluster/shared-state.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { createAuthHooks } from '../auth/authenticate.js';
import type { TokenCodec } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { MerchantServices, MerchantSessionPort } from '../auth/ports.js';
import type { RateLimiter } from '../auth/rate-limit.js';

/** A Fastify instance whose route schemas type the handlers (TypeBox). */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the route plugins need, built once in buildApp. */
export interface RouteContext {
  config: Config;
  services: MerchantServices;
  now: () => number;
  auth: ReturnType<typeof createAuthHooks>;
  tokens: TokenCodec;
  metrics: Metrics;
  redisState: () => RedisState;
  storeDialect: 'sqlite' | 'postgres';
  /** The app's rate-limit state (shared through Redis with several instances), for public routes that limit per address. */
  limiter: RateLimiter;
  /**
   * The admin API's operator authentication, when operator tokens are configured: GET /metrics on
   * the service port answers only to it (unless HOSTPAY_METRICS_PORT moves /metrics off that port).
   */
  operatorAuth?: ((req: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
  /** The merchant dashboard's sessions, the second way into merchant routes (a feature's `merchantSessions`). */
  sessions?: MerchantSessionPort | undefined;
}
