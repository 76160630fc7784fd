import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { PayoutJob } from '../../src/features/hot-wallet/port.js';
import type { Services } from '../../src/services.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import type { ChainDriver, WatchEnv } from '../evm/env.js';
import type { Anvil } from '../evm/anvil.js';

let seq = 0;

/** A fresh address nobody holds coins at: every balance the test reads there is the payout's. */
export const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();

/** An approved payout as the payouts feature hands it out, for `asset` on ETH. */
export async function jobFor(
  services: Services,
  asset: 'ETH' | 'USDT',
  amount: string,
  token: { contract: string; decimals: number } | null,
  destination = freshAddress(),
): Promise<PayoutJob> {
  const n = await services.store.db
    .selectFrom('networks as n')
    .innerJoin('chains as c', 'c.id', 'n.chain_id')
    .innerJoin('assets as a', 'a.id', 'n.asset_id')
    .select(['c.id as chainId', 'a.id as assetId', 'n.name as network'])
    .where('c.symbol', '=', 'ETH')
    .where('a.symbol', '=', asset)
    .executeTakeFirstOrThrow();
  return {
    id: `po_test${++seq}${Date.now().toString(36)}`,
    merchantId: 'mch_test',
    chainId: n.chainId,
    chain: 'ETH',
    network: n.network,
    asset,
    assetId: n.assetId,
    contract: token?.contract.toLowerCase() ?? null,
    decimals: token?.decimals ?? 18,
    amount,
    destination,
  };
}

/** The ETH watch on the anvil node (the hot wallet uses its node) and a hot wallet with `key`. */
export async function setUpChain(env: WatchEnv, anvil: Anvil, chain: ChainDriver, token: string, key: string) {
  resultOf(
    await env.admin('PUT', '/chains/ETH/watch', {
      body: {
        rpcUrl: anvil.url,
        tokens: [{ asset: 'USDT', contract: token, decimals: 6 }],
        confirmations: 3,
        pollIntervalMs: 500,
        startBlock: (await chain.head()) + 1,
      },
    }),
  );
  const set = resultOf(await env.admin('PUT', '/chains/ETH/hot-wallet', { body: { privateKey: key } }));
  expect(set).toEqual({ chain: 'ETH', address: privateKeyToAccount(key as `0x${string}`).address.toLowerCase() });
  return set.address as `0x${string}`;
}

/** The rows the sender keeps of a payout's transactions, oldest first. */
export async function txRows(services: Services, payoutId: string) {
  return services.store.db
    .selectFrom('hot_wallet_txs')
    .selectAll()
    .where('payout_id', '=', payoutId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A gauge or counter's value for chain ETH, read the way /metrics would. */
export async function metricValue(
  services: Services,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const want = { chain: 'ETH', ...labels };
  for (const m of services.hotWallet.metrics.collectors()) {
    const got = await (
      m as unknown as { get(): Promise<{ name: string; values: { value: number; labels: Record<string, string> }[] }> }
    ).get();
    if (got.name !== name) continue;
    const match = got.values.find((v) => Object.entries(want).every(([k, x]) => v.labels[k] === x));
    return match?.value ?? 0;
  }
  throw new Error(`no metric ${name}`);
}

/** How a sender child process ended, and what it wrote before (null: killed before writing). */
export interface SenderOutcome<Out> {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: Out | null;
}

/**
 * Runs a sender script in a child process over the test's store (its data directory, or its
 * PostgreSQL schema), as a restarted server would: `extra` is its environment on top (a job, a
 * kill point). Resolves when it exits, including by a signal; rejects if it failed on its own.
 */
export function runSenderProcess<Out>(
  script: string,
  env: Pick<WatchEnv, 'dataDir' | 'databaseUrl' | 'databaseSchema'>,
  out: string,
  extra: Record<string, string>,
): Promise<SenderOutcome<Out>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        HOTWALLET_DATA_DIR: env.dataDir,
        HOTWALLET_DATABASE_URL: env.databaseUrl,
        HOTWALLET_DATABASE_SCHEMA: env.databaseSchema,
        HOTWALLET_OUT: out,
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      let parsed: Out | null = null;
      try {
        parsed = JSON.parse(readFileSync(out, 'utf8')) as Out;
      } catch {
        // killed before writing
      }
      if (code !== 0 && signal === null) reject(new Error(`sender process failed (${code}): ${stderr}`));
      else resolve({ code, signal, out: parsed });
    });
  });
}
