// The baseline: bare node:http answering each path with the exact bytes hostpay sent for it.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [bodiesFile, port] = process.argv.slice(2);
const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(bodiesFile, 'utf8'))).map(([path, body]) => [path, Buffer.from(body)]),
);

const server = createServer((req, res) => {
  const body = bodies.get(req.url);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
