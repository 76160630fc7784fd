import type { AdminRoutes } from '../admin/scope.js';
import type { MerchantServices, MerchantSessionPort } from '../auth/ports.js';
import type { Caches } from '../cache/caches.js';
import type { InstanceIdentity } from '../cluster/instance.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { FastRoute } from '../http/fast-path.js';
import type { AdminIdempotency } from '../http/idempotency.js';
import type { RouteContext, TypedApp } from '../http/route-context.js';
import type { Migration } from '../store/migrate.js';
import type { Store } from '../store/store.js';
import type { Contributed, Contributions, PointName } from './contributions.js';
import type { OperatorFront, OperatorFrontContext } from './operator-front.js';

/** The configuration the services read (createServices takes less than a full Config). */
export type ServicesConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'masterKey'> &
  Partial<
    Pick<
      Config,
      | 'masterKeyPrevious'
      | 'redisUrl'
      | 'redisPrefix'
      | 'chainWatchFailingRounds'
      | 'autoMigrate'
      | 'databaseSchema'
      | 'databasePoolSize'
      | 'databaseTimeoutMs'
      | 'publicUrl'
      | 'sandbox'
      | 'host'
      | 'port'
      | 'webhookLeaseSeconds'
      | 'hotWalletFeeBumpAfterSeconds'
      | 'instanceId'
      | 'smtpUrl'
      | 'mailFrom'
      | 'mailPayerDailyLimit'
      | 'mailRecipientHourlyLimit'
    >
  >;

/**
 * Everything a feature can need, by name. The kernel's part is written here; each feature adds
 * what it provides from its own feature.ts (`declare module`), so a new provision is typed where
 * it is made and nowhere else.
 */
export interface Provisions {
  config: ServicesConfig;
  store: Store;
  box: SecretBox;
  caches: Caches;
  log: { warn(msg: string): void; info(msg: string): void };
  /** The clock tests move; undefined: Date.now. */
  now: (() => number) | undefined;
  /** Who this process is in the leases it holds (cluster/instance.ts). */
  identity: InstanceIdentity;
  /** Where checkout page links point: HOSTPAY_PUBLIC_URL, else the address the server listens on. */
  publicBaseUrl: () => string;
  /** createServices' options meant for one feature (timings, DNS in tests). */
  options: FeatureOptions;
}

/** createServices' options that belong to one feature, added by that feature (`declare module`). */
// biome-ignore lint/suspicious/noEmptyInterface: features merge their options into it.
export interface FeatureOptions {}

/**
 * createServer's switches that keep one feature's background work from starting (tests drive it
 * by hand), added by that feature (`declare module`) and named in its `startOption`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: features merge their switches into it.
export interface StartOptions {}

/** What createServices makes before any feature, in this order of names. */
export const KERNEL_PROVISIONS = [
  'config',
  'store',
  'box',
  'caches',
  'log',
  'now',
  'identity',
  'publicBaseUrl',
  'options',
] as const satisfies readonly (keyof Provisions)[];

export type ProvisionName = keyof Provisions;
export type KernelName = (typeof KERNEL_PROVISIONS)[number];
/** What the features provide: the services' feature fields and what the app's routes get. */
export type FeatureProvisions = Omit<Provisions, KernelName>;

/** The route context of a feature's merchant and public routes: the common one plus its provisions. */
export type FeatureRouteContext<N extends ProvisionName = never> = RouteContext &
  Pick<FeatureProvisions, Exclude<N, KernelName>> & {
    /** Idempotency-Key bookkeeping, shared with the admin API; absent without it. */
    idempotency?: AdminIdempotency | undefined;
  };

/**
 * One feature, declared in its folder's feature.ts and registered in features/index.ts.
 * `needs` and `provides` are provision names; createServices makes features in an order where
 * every need is provided first and fails at start-up, naming both, when one is not.
 * `consumes` and `contributes` are the contribution points (contributions.ts): what the feature
 * runs of others' and what it hands others, connected by the registry.
 */
export interface Feature<
  N extends ProvisionName = never,
  P extends ProvisionName = never,
  A extends object = object,
  C extends PointName = never,
> {
  name: string;
  /**
   * The migrations of its tables (features/<name>/tables.ts, which also adds the tables' types to
   * the store's `Database`), each with its global version; the registry merges every feature's.
   */
  migrations?: readonly Migration[];
  needs: readonly N[];
  provides: readonly P[];
  /** The contribution points it runs the contributions of (one consumer per point). */
  consumes?: readonly C[];
  /** What it hands other features' points, made from what it needs and provides once it is made. */
  contributes?: Contributions<Pick<Provisions, N | P>>;
  /**
   * Brings the store into the shape every feature may read, before any feature is made (rows an
   * earlier release left unsealed); it may write, and runs in the features' order.
   */
  prepare?: (deps: Pick<Provisions, 'store' | 'box'>) => Promise<unknown>;
  /**
   * What it provides that is read from the store (a key kept sealed there), once every feature's
   * `prepare` has run and before any feature is made; `create` makes the rest.
   */
  load?: (deps: Pick<Provisions, 'store' | 'box'>) => Promise<Partial<Pick<Provisions, P>>>;
  /** Makes what the feature provides; `close` releases what it opened (called in reverse order). */
  create?: (
    deps: Pick<Provisions, N>,
    contributed: Contributed<C>,
  ) => Pick<Provisions, P> & { close?: () => Promise<void> | void };
  /** Operator operations, spread into the services' `admin` (the admin API, the CLI). */
  admin?: (deps: Pick<Provisions, N | P>) => A;
  /** Public and merchant HTTP routes. */
  merchantRoutes?: readonly ((app: TypedApp, ctx: FeatureRouteContext<N | P>) => Promise<void>)[];
  /** Operator routes under /admin/v1; they get the operator operations. */
  adminRoutes?: readonly AdminRoutes<A>[];
  /** Cached merchant reads also answered before Fastify (http/fast-path.ts), each standing for a merchant route. */
  fastRoutes?: readonly ((services: MerchantServices) => FastRoute[])[];
  /**
   * Its part of the merchant read path (auth/ports.ts `MerchantServices`: the key lookup, the
   * cached answers its fast routes serve), over what it needs and provides; createServices merges
   * every feature's part, one owner per field.
   */
  merchantServices?: (provided: Pick<Provisions, N | P>) => Partial<MerchantServices>;
  /** Starts background work (createServer, unless told not to); the feature's `close` stops it. */
  start?: (provided: Pick<FeatureProvisions, Exclude<N | P, KernelName>>) => void;
  /** The createServer switch that, false, keeps `start` from running (StartOptions). */
  startOption?: keyof StartOptions;
  /**
   * The merchant dashboard's sessions, the second way into the merchant routes
   * (auth/authenticate.ts), over the app's clock and settings (buildApp; one feature at most).
   */
  merchantSessions?: (
    provided: Pick<FeatureProvisions, Exclude<N | P, KernelName>>,
    app: { config: Config; now: () => number },
  ) => MerchantSessionPort;
  /**
   * A browser front for the admin API (the console; one feature at most), made by buildApp over the
   * feature's operator operations (undefined when the admin API is off) and the operator check's
   * settings: its routes need the operator tokens, so they are not `merchantRoutes`.
   */
  operatorFront?: (admin: A | undefined, app: OperatorFrontContext) => OperatorFront;
}

/** Keeps a descriptor's own types (needs, provides, operations, points) for the registration list. */
export function defineFeature<
  const N extends ProvisionName = never,
  const P extends ProvisionName = never,
  A extends object = object,
  const C extends PointName = never,
>(feature: Feature<N, P, A, C>): Feature<N, P, A, C> {
  return feature;
}

/**
 * Any registered feature, as the composition walks them. Each feature's own functions take less
 * than these parameters offer (its needs out of every provision), so any descriptor fits.
 */
export interface AnyFeature {
  name: string;
  migrations?: readonly Migration[];
  needs: readonly ProvisionName[];
  provides: readonly ProvisionName[];
  consumes?: readonly PointName[] | undefined;
  contributes?: Contributions<never> | undefined;
  prepare?: ((deps: Pick<Provisions, 'store' | 'box'>) => Promise<unknown>) | undefined;
  load?: ((deps: Pick<Provisions, 'store' | 'box'>) => Promise<Partial<Provisions>>) | undefined;
  create?: (
    deps: Provisions,
    contributed: Contributed<PointName>,
  ) => Partial<Provisions> & { close?: () => Promise<void> | void };
  admin?: (deps: Provisions) => object;
  merchantRoutes?: readonly ((app: TypedApp, ctx: FeatureRouteContext<ProvisionName>) => Promise<void>)[];
  adminRoutes?: readonly AdminRoutes<never>[];
  fastRoutes?: readonly ((services: MerchantServices) => FastRoute[])[];
  merchantServices?: ((provided: Provisions) => Partial<MerchantServices>) | undefined;
  start?: (provided: FeatureProvisions) => void;
  startOption?: keyof StartOptions | undefined;
  merchantSessions?:
    | ((provided: FeatureProvisions, app: { config: Config; now: () => number }) => MerchantSessionPort)
    | undefined;
  operatorFront?: ((admin: never, app: OperatorFrontContext) => OperatorFront) | undefined;
}

/** The operator operations of a list of features, as one object type. */
export type AdminOf<F> = UnionToIntersection<
  F extends { admin?: ((deps: never) => infer A) | undefined } ? (A extends object ? A : never) : never
>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
