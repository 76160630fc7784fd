import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  body: string;
  type?: string;
}

/** A test's own answer for a request (malformed answers, errors); undefined: the stand-in answers. */
export type Override = (req: { method: string; path: string; body: string }) => Answer | undefined;

/** A node:http server on 127.0.0.1 (a free port) that answers with `handle`, logging each request. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

export const close = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });

export function send(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, { 'content-type': a.type ?? 'text/plain', 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}
