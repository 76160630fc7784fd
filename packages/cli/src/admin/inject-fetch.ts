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
    // A Request, a URL or a string, with init on top, exactly as fetch reads them.
    const request = new Request(input instanceof URL ? input.href : input, init);
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body === null ? undefined : await request.text();
    const res = await app.inject({
      method: request.method,
      url: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { payload: body }),
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
