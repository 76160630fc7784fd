import { createServer as netServer } from 'node:net';
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServer, type HostpayServer } from '../../src/create-server.js';
import { adminCaller, ALICE, type AdminCall } from '../http-helpers/admin-fixture.js';
import { waitFor } from '../helpers.js';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { freshAddress } from './common.js';

/**
 * Issue 28, security: the hot wallet key never appears in plain text in an answer, a log line,
 * an error or a stored column, above all when a round fails (where an error message built from a
 * request could carry it). A server as `hostpay serve` composes it, logging at trace level (its
 * services' warnings into the app's logger, as serve wires them), its sender failing three ways:
 * a node of another chain id, an RPC port that refuses, and a wallet without gas (where the key
 * is opened and used). After each, everything the operator or the store could show is searched
 * for the key, with and without 0x, in any case, and for any long piece of it.
 */
const suite = anvilBinary === null ? describe.skip : describe;

async function refusingUrl(): Promise<string> {
  // A port that was free a moment ago and is closed again: connecting to it is refused.
  const port = await new Promise<number>((resolve, reject) => {
    const s = netServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  return `http://127.0.0.1:${port}`;
}

suite('the hot wallet key in failing sender rounds (anvil, server at trace level)', () => {
  const key = generatePrivateKey();
  const hex = key.slice(2).toLowerCase();
  const address = privateKeyToAccount(key).address.toLowerCase();
  const lines: string[] = [];
  /** Every answer body and every error the test saw, searched at the end as well. */
  const shown: string[] = [];
  let anvil: Anvil;
  let dataDir: string;
  let server: HostpayServer;
  let admin: AdminCall;
  let payoutId: string;

  /** The key's traces in `text`: whole in any case (with or without 0x), or a 32-character piece of it. */
  const leaks = (text: string) => {
    const t = text.toLowerCase();
    return [hex, hex.slice(0, 32), hex.slice(16, 48), hex.slice(32)].filter((k) => t.includes(k));
  };

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await admin(method, path, body === undefined ? {} : { body });
    shown.push(res.body);
    return res;
  };

  /** A sender round expected to fail: its error's message and stack kept for the search. */
  const failingRound = async (): Promise<Error> => {
    const err = await server.services.hotWallet.sender.round('ETH').then(
      (r) => new Error(`the round did not fail: ${JSON.stringify(r)}`),
      (e: unknown) => e as Error,
    );
    shown.push(String(err), err.stack ?? '');
    return err;
  };

  const watchAt = async (rpcUrl: string, networkId: string) => {
    const res = await call('PUT', '/chains/ETH/watch', { rpcUrl, networkId, confirmations: 1, pollIntervalMs: 500 });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    anvil = await startAnvil();
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-hwkey-'));
    const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
    const config = loadConfig(
      {},
      { dataDir, sandbox: true, adminTokens: `alice:${ALICE}`, logLevel: 'trace', console: false },
    );
    // The services' warnings go to the app's logger once it exists, as `hostpay serve` wires them.
    let appLog: { warn(m: string): void; info(m: string): void } | undefined;
    server = await createServer(config, {
      generateMasterKey: true,
      background: false,
      logger: { level: 'trace', stream },
      log: {
        warn: (m) => (appLog === undefined ? lines.push(m) : appLog.warn(m)),
        info: (m) => (appLog === undefined ? lines.push(m) : appLog.info(m)),
      },
    });
    appLog = server.app.log;
    await server.app.ready();
    admin = adminCaller(() => server.app);

    const set = await call('PUT', '/chains/ETH/hot-wallet', { privateKey: key });
    expect(set.statusCode, set.body).toBe(200);
    expect(JSON.parse(set.body).result).toEqual({ chain: 'ETH', address });
    expect((await call('PUT', '/payout-fees', { chain: 'ETH', asset: 'ETH', networkFee: '0.001' })).statusCode).toBe(
      200,
    );
    const ctx = { operator: 'test' };
    const { admin: ops, payouts } = server.services;
    const merchantId = (await ops.createMerchant('Key Leak Shop', ctx)).id;
    const walletId = (await ops.createWallet({ merchantId, asset: 'ETH', chain: 'ETH' }, ctx)).id;
    await ops.post({ walletId, kind: 'credit', amount: '10' }, ctx);
    const d = await payouts.addDestination(merchantId, { chain: 'ETH', address: freshAddress() });
    await payouts.activateDestination(d.id, ctx);
    payoutId = (await payouts.create(merchantId, { walletId, amount: '0.5', destinationId: d.id })).id;
    await payouts.approve(payoutId, ctx);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await anvil?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a node of another chain id: the round refused before signing, the key nowhere', async () => {
    await watchAt(anvil.url, '1');
    const err = await failingRound();
    expect(err.message).toMatch(/chain id 31337.*chain id 1/);
    const hw = JSON.parse((await call('GET', '/chains/ETH/hot-wallet')).body).result;
    expect(hw.lastError).toMatch(/chain id 31337/);
    expect(leaks(shown.join('\n'))).toEqual([]);
  });

  it('an RPC port that refuses: the round fails, the loop logs a warning; the key nowhere', async () => {
    await watchAt(await refusingUrl(), '31337');
    const err = await failingRound();
    expect(err.message).not.toBe('');
    expect(JSON.parse((await call('GET', '/chains/ETH/hot-wallet')).body).result.lastError).toBe(err.message);
    // The sender's own loop, as a serving instance runs it: its failure reaches the log.
    const before = lines.length;
    server.services.hotWallet.sender.start();
    try {
      await waitFor(() => lines.slice(before).some((l) => l.includes('hot wallet ETH:')), 'the loop warning', 10_000);
    } finally {
      await server.services.hotWallet.sender.stop();
    }
    expect(leaks(lines.join('\n'))).toEqual([]);
    expect(leaks(shown.join('\n'))).toEqual([]);
  });

  it('a wallet without gas (the key opened to sign): the payout held with its reason, the key nowhere', async () => {
    await watchAt(anvil.url, '31337');
    expect(await server.services.hotWallet.sender.round('ETH')).toMatchObject({ leader: true, sent: 0 });
    const payout = JSON.parse((await call('GET', `/payouts/${payoutId}`)).body).result;
    expect(payout.status).toBe('approved');
    expect(payout.reason).toMatch(new RegExp(`^hot wallet ${address} balance too low`));
    // The last failed round's message is cleared by this successful one.
    expect(JSON.parse((await call('GET', '/chains/ETH/hot-wallet')).body).result.lastError).toBeNull();
    expect(leaks(shown.join('\n'))).toEqual([]);
  });

  it('after all three: no log line, answer, error or column of any table holds the key', async () => {
    // Every admin call logged its line, the loop its warning: the search ran over a real log.
    expect(lines.filter((l) => l.includes('"msg":"request completed"')).length).toBeGreaterThanOrEqual(9);
    expect(lines.filter((l) => l.includes('"level":40')).length).toBeGreaterThanOrEqual(1);
    expect(leaks(lines.join('\n'))).toEqual([]);
    expect(leaks(shown.join('\n'))).toEqual([]);
    const db = server.services.store.db;
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    expect(tables.rows.map((t) => t.name)).toEqual(expect.arrayContaining(['hot_wallets', 'payouts', 'audit_log']));
    for (const { name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(name)}`.execute(db);
      // A key stored as bytes would hide in a Buffer's JSON: bytes are searched as hex.
      const text = JSON.stringify(rows.rows, (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
      );
      expect(leaks(text), name).toEqual([]);
    }
  });
});
