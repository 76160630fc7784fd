import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, seedDemo, type DemoCredentials } from '@hostpay/server';
import { createServer, type HostpayServer } from '@hostpay/server/app';
import { readEventStream } from '../src/commands/listen.js';
import { run } from '../src/program.js';
import { memoryIo, tempDir } from './helpers.js';

/**
 * The merchant's webhook commands against a real sandbox server (worker running) in this process:
 * create an endpoint, trigger a settled checkout, see it delivered and logged, list and get events,
 * and `hostpay listen` forwarding events signed with its local secret.
 */
interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}
async function receiver(): Promise<{ url: string; hits: Hit[]; server: Server }> {
  const hits: Hit[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, hits, server };
}
const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe('reading an event stream', () => {
  it('joins data lines, takes CRLF, and survives messages cut anywhere between chunks', async () => {
    const text =
      ': events after #7\r\n\r\nretry: 1000\n\nid: 8\nevent: checkout.created\ndata: {"id":"evt_a",\ndata: "n":1.10}\n\n: keep-alive\n\nid: 9\nevent: test.ping\ndata: {"id":"evt_b"}\n\n';
    for (const size of [1, 3, 7, text.length]) {
      const bytes = new TextEncoder().encode(text);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
          controller.close();
        },
      });
      const items = [];
      for await (const item of readEventStream(body)) items.push(item);
      expect(items).toEqual([
        { after: 7 },
        { sequence: 8, type: 'checkout.created', body: '{"id":"evt_a",\n"n":1.10}' },
        { sequence: 9, type: 'test.ping', body: '{"id":"evt_b"}' },
      ]);
    }
  });
});

describe('webhook commands', () => {
  const data = tempDir();
  let server: HostpayServer;
  let url: string;
  let demo: DemoCredentials;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let local: Awaited<ReturnType<typeof receiver>>;
  const cli = async (...args: string[]) => {
    const io = memoryIo();
    const code = await run([...args, '--base-url', url, '--api-key', demo.apiKey, '--api-secret', demo.apiSecret], io);
    expect(code, io.err).toBe(0);
    return io.out;
  };

  beforeAll(async () => {
    const config = loadConfig({}, { dataDir: data.dir, logLevel: 'silent', sandbox: true, adminTokens: '' });
    server = await createServer(config, { generateMasterKey: true, logger: false });
    demo = await seedDemo(server.services, data.dir);
    // Demo seeding gives the demo chains the vectors' deposit keys (confirmations 1): checkouts can be created.
    url = (await server.listen({ host: '127.0.0.1', port: 0, handleSignals: false })).url;
    hooks = await receiver();
    local = await receiver();
  });
  afterAll(async () => {
    await server.close();
    for (const r of [hooks, local]) {
      r.server.closeAllConnections();
      r.server.close();
    }
    data.remove();
  });

  it('create, trigger checkout.settled, see it delivered, verified and logged', async () => {
    const created = JSON.parse(
      await cli('webhooks', 'create', '--url', hooks.url, '--events', 'checkout.settled', '--json'),
    ) as { id: string; secret: string };
    expect(created.secret).toMatch(/^whsec_/);
    expect(await cli('webhooks', 'list')).toContain(created.id);
    expect(await cli('trigger', 'checkout.settled')).toMatch(/^checkout chk_\w+ is settled/);
    await until(() => hooks.hits.length === 1, 'the checkout.settled delivery');
    const hit = hooks.hits[0]!;
    const event = new Webhook(created.secret).verify(hit.body, hit.headers as Record<string, string>) as {
      id: string;
      type: string;
    };
    expect(event.type).toBe('checkout.settled');
    const log = await cli('webhooks', 'deliveries', created.id);
    expect(log).toMatch(/checkout\.settled +HTTP 200/);
    expect(await cli('events', 'list', '--type', 'checkout.settled')).toContain(event.id);
    expect(JSON.parse(await cli('events', 'get', event.id))).toMatchObject({ id: event.id, type: 'checkout.settled' });
    expect(await cli('events', 'redeliver', event.id)).toContain(created.id);
    await until(() => hooks.hits.length === 2, 'the redelivery');
    expect(hooks.hits[1]!.headers['webhook-id']).toBe(event.id);
    expect(await cli('webhooks', 'test', created.id)).toContain('test.ping');
    expect(await cli('webhooks', 'rotate-secret', created.id)).toMatch(/secret whsec_/);
  });

  it('listen forwards new events signed with the local secret it prints', async () => {
    const secret = `whsec_${Buffer.from('a local secret of 24 byte').toString('base64')}`;
    const io = memoryIo();
    const listening = run(
      [
        'listen',
        '--forward-to',
        local.url,
        '--secret',
        secret,
        '--max-events',
        '2',
        '--events',
        'checkout.created,checkout.canceled',
        '--base-url',
        url,
        '--api-key',
        demo.apiKey,
        '--api-secret',
        demo.apiSecret,
      ],
      io,
    );
    await until(() => io.out.includes('Ready'), 'listen to start');
    expect(io.out).toContain(secret);
    await cli('trigger', 'checkout.canceled');
    expect(await listening).toBe(0);
    expect(local.hits.map((h) => (JSON.parse(h.body) as { type: string }).type)).toEqual([
      'checkout.created',
      'checkout.canceled',
    ]);
    for (const h of local.hits)
      expect(() => new Webhook(secret).verify(h.body, h.headers as Record<string, string>)).not.toThrow();
    expect(io.out).toMatch(/checkout\.canceled +evt_\w+ +-> HTTP 200/);
  });

  it('listen reconnects when the stream ends and resumes after the last event it forwarded: nothing skipped', async () => {
    const io = memoryIo();
    const before = local.hits.length;
    const listening = run(
      [
        'listen',
        '--forward-to',
        local.url,
        '--max-events',
        '3',
        '--events',
        'checkout.created,checkout.canceled',
        '--base-url',
        url,
        '--api-key',
        demo.apiKey,
        '--api-secret',
        demo.apiSecret,
      ],
      io,
    );
    await until(() => io.out.includes('Ready'), 'listen to start');
    await cli('trigger', 'checkout.created');
    await until(() => local.hits.length === before + 1, 'the first event');
    // The server ends every stream (as at a restart); an event committed meanwhile is not lost.
    server.services.events.streams.closeAll();
    await cli('trigger', 'checkout.canceled'); // checkout.created, then checkout.canceled
    expect(await listening).toBe(0);
    const types = local.hits.slice(before).map((h) => (JSON.parse(h.body) as { type: string }).type);
    expect(types).toEqual(['checkout.created', 'checkout.created', 'checkout.canceled']);
    const sequences = local.hits.slice(before).map((h) => (JSON.parse(h.body) as { sequence: number }).sequence);
    expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
    expect(new Set(sequences).size).toBe(3);
  });
});
