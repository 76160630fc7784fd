import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, seedDemo, type DemoCredentials } from '@hostpay/server';
import { createServer, type HostpayServer } from '@hostpay/server/app';
import { buildProgram } from '../src/program.js';
import { cli, json } from './admin-helpers.js';
import { memoryIo, tempDir } from './helpers.js';

/**
 * Every list command, merchant and operator, prints the same `--json` shape: `{items, nextCursor}`
 * (nextCursor null on the last page). The table below must name every list command the program
 * has, so a new one cannot print another shape unnoticed.
 */
const TOKEN = randomBytes(32).toString('hex');

/** Commands that print a list: every `list`, and the lists named for what they list. */
const LIST_NAMES = new Set(['list', 'wallets', 'deliveries', 'grants', 'networks', 'watches', 'postings']);

function listCommands(cmd: Command, path: string[] = []): string[] {
  return cmd.commands.flatMap((sub) => {
    const here = [...path, sub.name()];
    return [...(LIST_NAMES.has(sub.name()) ? [here.join(' ')] : []), ...listCommands(sub, here)];
  });
}

describe('one list shape', () => {
  const data = tempDir();
  let server: HostpayServer;
  let url: string;
  let demo: DemoCredentials;
  let ids: { wallet: string; key: string; endpoints: string[] };
  const merchantEnv = () => ({
    HOSTPAY_BASE_URL: url,
    HOSTPAY_API_KEY: demo.apiKey,
    HOSTPAY_API_SECRET: demo.apiSecret,
  });
  const operatorEnv = () => ({ HOSTPAY_ADMIN_URL: url, HOSTPAY_ADMIN_TOKEN: TOKEN });

  beforeAll(async () => {
    // The whole server (webhook routes included), as `hostpay serve --demo` runs it, with the admin API.
    const config = loadConfig(
      {},
      { dataDir: data.dir, logLevel: 'silent', sandbox: true, adminTokens: `alice:${TOKEN}` },
    );
    server = await createServer(config, { generateMasterKey: true, logger: false });
    demo = await seedDemo(server.services, data.dir);
    url = (await server.listen({ host: '127.0.0.1', port: 0, handleSignals: false })).url;
    const endpoints: string[] = [];
    for (const n of [1, 2]) {
      const created = json<{ id: string }>(
        await cli(['webhooks', 'create', '--url', `http://localhost:9/hook-${n}`, '--json'], merchantEnv()),
      );
      endpoints.push(created.id);
    }
    const wallets = json<{ items: { id: string }[] }>(await cli(['wallet', 'list', '--json'], operatorEnv()));
    const keys = json<{ items: { id: string }[] }>(await cli(['key', 'list', '--json'], operatorEnv()));
    ids = { wallet: wallets.items[0]!.id, key: keys.items[0]!.id, endpoints };
  }, 60_000);
  afterAll(async () => {
    await server.close();
    data.remove();
  });

  /** Each list command with the arguments it needs; `merchant` ones take the API key, the others the admin token. */
  const table = (): [string, string[], 'merchant' | 'operator'][] => [
    ['wallets', [], 'merchant'],
    ['checkout list', [], 'merchant'],
    ['events list', [], 'merchant'],
    ['webhooks list', [], 'merchant'],
    ['webhooks deliveries', [ids.endpoints[0]!], 'merchant'],
    ['merchant list', [], 'operator'],
    ['key list', [], 'operator'],
    ['key grants', [ids.key], 'operator'],
    ['wallet list', [], 'operator'],
    ['wallet postings', [ids.wallet], 'operator'],
    ['asset list', [], 'operator'],
    ['asset networks', ['USDT'], 'operator'],
    ['chain list', [], 'operator'],
    ['chain watches', [], 'operator'],
    ['network list', [], 'operator'],
    ['address list', [], 'operator'],
    ['fee list', [], 'operator'],
    ['settlement list', [], 'operator'],
    ['rate list', [], 'operator'],
    ['rates source list', [], 'operator'],
    ['audit list', [], 'operator'],
    ['transfer list', [], 'operator'],
    ['checkout review list', [], 'operator'],
    ['payout list', [], 'merchant'],
    ['payout destination list', [], 'merchant'],
    ['payout review list', [], 'operator'],
    ['payout fee list', [], 'operator'],
    ['link list', [], 'merchant'],
    ['invoice list', [], 'merchant'],
  ];

  it('the table names every list command the program has', () => {
    expect(
      table()
        .map(([name]) => name)
        .sort(),
    ).toEqual(listCommands(buildProgram(memoryIo())).sort());
  });

  it('every list command prints {items, nextCursor} with --json', async () => {
    for (const [name, args, who] of table()) {
      const doc = json<Record<string, unknown>>(
        await cli([...name.split(' '), ...args, '--json'], who === 'merchant' ? merchantEnv() : operatorEnv()),
      );
      expect(Object.keys(doc), name).toEqual(['items', 'nextCursor']);
      expect(Array.isArray(doc['items']), name).toBe(true);
      expect(doc['nextCursor'] === null || typeof doc['nextCursor'] === 'string', name).toBe(true);
    }
  });

  it('webhooks list pages with --limit and --cursor instead of dropping nextCursor', async () => {
    type Page = { items: { id: string }[]; nextCursor: string | null };
    const first = json<Page>(await cli(['webhooks', 'list', '--limit', '1', '--json'], merchantEnv()));
    expect(first.items.map((e) => e.id)).toEqual([ids.endpoints[1]]); // newest first
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = json<Page>(
      await cli(['webhooks', 'list', '--limit', '1', '--cursor', first.nextCursor!, '--json'], merchantEnv()),
    );
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids.endpoints[0] })], nextCursor: null });

    const text = await cli(['webhooks', 'list', '--limit', '1'], merchantEnv());
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(`more: repeat with --cursor ${first.nextCursor}`);
  });
});
