import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The path as registered, with Fastify's `:param` placeholders. */
  url: string;
}

const lists = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route added to `app` from now on (call it before registering any), so tests can
 * walk what the server really answers rather than a hand-kept list: a new operator write route
 * without an audit entry fails the audit walk.
 */
export function trackRoutes(app: FastifyInstance): void {
  const list: RegisteredRoute[] = [];
  lists.set(app, list);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) list.push({ method, url: route.url });
  });
}

/** The routes `app` registered since trackRoutes, one entry per method. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...(lists.get(app) ?? [])];
}
