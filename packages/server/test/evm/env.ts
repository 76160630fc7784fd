import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  parseUnits,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { seedDemo } from '../../src/demo/seed.js';
import type { WatcherOptions } from '../../src/features/chain-watch/watcher.js';
import type { Resolver } from '../../src/outbound/guard.js';
import { createServices, type Services } from '../../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { adminCaller, ALICE, type AdminCall } from '../http-helpers/admin-fixture.js';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';
import type { Anvil } from './anvil.js';
import { TOKEN_ABI, TOKEN_BYTECODE } from './token.js';

/** anvil's first default account (a well-known test key, funded with 10,000 ETH). */
export const PAYER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

/** The node as the tests drive it: pay, mine, snapshot and revert. */
export function chainDriver(anvil: Anvil) {
  const transport = http(anvil.url);
  const pub = createPublicClient({ transport });
  const wallet = createWalletClient({ account: PAYER, transport });
  const test = createTestClient({ mode: 'anvil', transport });
  const chain = {
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  } as const;
  return {
    pub,
    test,
    async head(): Promise<number> {
      return Number(await pub.getBlockNumber({ cacheTime: 0 }));
    },
    async deployToken(decimals = 6): Promise<Address> {
      const hash = await wallet.deployContract({
        abi: TOKEN_ABI,
        bytecode: TOKEN_BYTECODE,
        args: [decimals, parseUnits('1000000000', decimals)],
        chain,
      });
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return receipt.contractAddress!;
    },
    /** A signed token transfer, not sent: send it (again) with sendRaw. */
    async signTokenTransfer(token: Address, to: string, amount: string, decimals = 6): Promise<Hex> {
      const request = await wallet.prepareTransactionRequest({
        to: token,
        data: encodeTransfer(to, parseUnits(amount, decimals)),
        chain,
      });
      return wallet.signTransaction({ ...request, chain } as never);
    },
    async sendRaw(raw: Hex): Promise<Hash> {
      const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
      await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return hash;
    },
    async payToken(token: Address, to: string, amount: string, decimals = 6): Promise<Hash> {
      const hash = await wallet.writeContract({
        address: token,
        abi: TOKEN_ABI,
        functionName: 'transfer',
        args: [to as Address, parseUnits(amount, decimals)],
        chain,
      });
      await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return hash;
    },
    async payEth(to: string, amount: string): Promise<Hash> {
      const hash = await wallet.sendTransaction({ to: to as Address, value: parseEther(amount), chain });
      await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return hash;
    },
    mine: (blocks: number) => test.mine({ blocks }),
    snapshot: () => test.snapshot(),
    revert: (id: Hex) => test.revert({ id }),
  };
}
export type ChainDriver = ReturnType<typeof chainDriver>;

function encodeTransfer(to: string, value: bigint): Hex {
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${value.toString(16).padStart(64, '0')}`;
}

export interface WatchEnv {
  services: Services;
  app: FastifyInstance;
  admin: AdminCall;
  merchantId: string;
  /** The server's data directory (its SQLite file and master.key), for processes that open the same store. */
  dataDir: string;
  /** The store's PostgreSQL URL and schema ('' on SQLite), for processes that open the same store. */
  databaseUrl: string;
  databaseSchema: string;
  clock: { offsetMs: number };
  now(): number;
  /** Services over the same store with their own watcher, as another instance (same clock). */
  another(): Promise<Services>;
  close(): Promise<void>;
}

/**
 * hostpay as an operator runs it beside a node on this host: a sandbox server (loopback RPC
 * allowed) over a fresh store, the demo seeded (merchant, fees, deposit keys), the watcher not
 * started (the tests run its rounds), the admin API on with alice's token.
 */
export async function watchEnv(
  dialect: Dialect,
  watcher: Partial<WatcherOptions> = {},
  server: { sandbox?: boolean; resolve?: Resolver; config?: Partial<Config> } = {},
): Promise<WatchEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-evm-'));
  const clock = { offsetMs: 0 };
  const now = () => Date.now() + clock.offsetMs;
  const schema = `hp_evm_${randomBytes(6).toString('hex')}`;
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: 'silent',
      sandbox: server.sandbox ?? true,
      adminTokens: `alice:${ALICE}`,
      ...(dialect === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}),
      ...server.config,
    },
  );
  const options = {
    now,
    expirySweepMs: 0,
    chainWatch: {
      watcher: { reloadMs: 60_000, ...watcher },
      ...(server.resolve === undefined ? {} : { resolve: server.resolve }),
    },
  };
  const open = async (generate: boolean) =>
    createServices(config, {
      generateMasterKey: generate,
      ...options,
      ...(dialect === 'postgres' ? { store: await openPostgresStore(TEST_DATABASE_URL, { schema }) } : {}),
    });
  const services = await open(true);
  const demo = await seedDemo(services, dataDir);
  const app = await buildApp({
    config,
    services: services.merchant,
    admin: services.admin,
    features: services,
    now,
    logger: false,
  });
  await app.ready();
  const others: Services[] = [];
  return {
    services,
    app,
    admin: adminCaller(() => app),
    merchantId: demo.merchantId,
    dataDir,
    databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : '',
    databaseSchema: dialect === 'postgres' ? schema : '',
    clock,
    now,
    async another() {
      const s = await open(false);
      others.push(s);
      return s;
    },
    async close() {
      await app.close();
      for (const s of others) await s.close();
      await services.close();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
