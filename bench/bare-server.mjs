// The baseline: bare node:http answering each path with the exact bytes hostpay sent for it.
// With a third argument (a JSON file of each path's response headers, as hostpay sent them), it
// also writes those headers, a fresh request id and a falling RateLimit-Remaining on each answer,
// as hostpay does: the same bytes on the wire, head and body. Without it, only the body with its
// type and length.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [bodiesFile, port, headersFile] = process.argv.slice(2);
const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(bodiesFile, 'utf8'))).map(([path, body]) => [path, Buffer.from(body)]),
);
const heads =
  headersFile === undefined ? undefined : new Map(Object.entries(JSON.parse(readFileSync(headersFile, 'utf8'))));
// As hostpay's request ids (http/request-id.ts): a per-process prefix and a counter.
const PREFIX = 'req_' + Math.random().toString(16).slice(2, 14).padEnd(12, '0');
let counter = 0;
let remaining = 1_000_000_000;

const server = createServer((req, res) => {
  const body = bodies.get(req.url);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  const head = heads?.get(req.url);
  if (head === undefined) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  } else {
    counter++;
    remaining = remaining > 0 ? remaining - 1 : 1_000_000_000;
    res.writeHead(
      200,
      Object.assign({}, head, {
        'x-request-id': PREFIX + counter.toString(36).padStart(6, '0'),
        'ratelimit-remaining': remaining,
        'content-length': body.length,
      }),
    );
  }
  res.end(body);
});
server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
