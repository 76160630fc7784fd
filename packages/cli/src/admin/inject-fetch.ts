/** What this needs of a Fastify app (structural, so the CLI does not depend on Fastify's types). */
export interface Injectable {
  inject(req: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    rawPayload: Buffer;
  }>;
}

/**
 * A `fetch` that hands the request to an in-process Fastify app (app.inject): the same routes,
 * hooks, validation and serialization as over a socket, without one.
 */
export function injectFetch(app: Injectable): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const res = await app.inject({
      method: init.method ?? 'GET',
      url: url.pathname + url.search,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
}
