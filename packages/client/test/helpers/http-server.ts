import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server saw it. */
export interface Recorded {
  method: string;
  path: string;
  /** The path and query as sent (what a version-2 signature covers). */
  target: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  /** 0 destroys the connection without an answer (a network error for the client). */
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
}

/** Answers with a Reply, or takes the raw response (to hang, or to destroy the socket). */
export type Handler = (req: Recorded, res: ServerResponse) => Reply | undefined | Promise<Reply | undefined>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A real HTTP server on a random local port; the test closes it. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rec = {
        method: req.method ?? '',
        path: url.pathname,
        target: req.url ?? '/',
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).then(
        (reply) => reply && send(res, reply),
        (err: unknown) => send(res, { status: 500, body: String(err) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  if (reply.status === 0) return void res.socket?.destroy();
  const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(text);
}

/** A hostpay error envelope. */
export function errorReply(
  status: number,
  code: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply {
  const requestId = `req-${code.toLowerCase()}`;
  const error = details === undefined ? { code, requestId } : { code, requestId, details };
  return {
    status,
    headers: { 'x-request-id': requestId, ...headers },
    body: { status: false, isSuccess: false, message: `${code} happened`, result: null, error },
  };
}

/** A hostpay success envelope; a string result is written into the JSON text verbatim. */
export function okReply(result: unknown): Reply {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return {
    status: 200,
    headers: { 'x-request-id': 'req-ok' },
    body: `{"status":true,"message":"ok","isSuccess":true,"result":${text}}`,
  };
}
