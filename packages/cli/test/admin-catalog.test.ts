import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateAddress } from '../../server/src/features/addresses/allocate.js';
import { readVectorFile } from '../../protocol/test/vectors.js';
import { cells, cli, json, text } from './admin-helpers.js';
import { startAdminServer, type AdminServer } from './test-server.js';
import { lines, tempDir, type Result } from './helpers.js';

/**
 * The catalog commands (asset, chain, network, address), written once and run on the local store
 * and through a server's admin API: the same commands give the same results on both.
 */
const vectors = readVectorFile<{
  chains: { chain: string; network: string; accountXpub: string; slip132?: string }[];
  invalidKeys: { chain: string; key: string }[];
}>('addresses.json');
const ETH_XPUB = vectors.chains.find((c) => c.chain === 'ETH')!.accountXpub;
const BTC = vectors.chains.find((c) => c.chain === 'BTC' && c.network === 'mainnet')!;
const TOKEN = randomBytes(32).toString('hex');

interface Target {
  run(...args: string[]): Promise<Result>;
  /** The same, with more environment variables. */
  runEnv(env: Record<string, string>, ...args: string[]): Promise<Result>;
  operator: string;
  close(): Promise<void>;
}

/** The one stderr line of a failed command and its exit code; nothing on stdout. */
const failure = (r: Result, code = 1): string => {
  expect([r.code, r.stdout, lines(r.stderr).length], r.stderr).toEqual([code, '', 1]);
  return r.stderr.trimEnd();
};

function catalogScenario(name: string, setup: () => Promise<Target>): void {
  describe(name, () => {
    let target: Target;
    const run = (...args: string[]): Promise<Result> => target.run(...args);
    beforeAll(async () => {
      target = await setup();
    });
    afterAll(() => target.close());

    it('asset add, list, update', async () => {
      expect(text(await run('asset', 'add', 'dai', '--name', 'Dai', '--precision', '18'))).toBe(
        'added asset DAI (Dai): precision 18, crypto, active, image dai.png\nnext: hostpay network add --asset DAI --chain CHAIN --name NAME\n',
      );
      const table = cells(text(await run('asset', 'list')));
      expect(table[0]).toEqual(['SYMBOL', 'NAME', 'PRECISION', 'CRYPTO', 'ACTIVE', 'IMAGE']);
      expect(table).toContainEqual(['DAI', 'Dai', '18', 'yes', 'yes', 'dai.png']);
      expect(table).toContainEqual(['EUR', 'Euro', '2', 'no', 'yes', 'eur.png']);
      const updated = json(
        await run('asset', 'update', 'DAI', '--precision', '6', '--inactive', '--image', 'dai.svg', '--json'),
      );
      // json() reads numbers as their exact text.
      expect(updated).toMatchObject({ symbol: 'DAI', precision: '6', active: false, image: 'dai.svg' });
      expect(
        json<{ items: { symbol: string; precision: string }[] }>(await run('asset', 'list', '--json')).items.find(
          (a) => a.symbol === 'DAI',
        )?.precision,
      ).toBe('6');
      expect(failure(await run('asset', 'update', 'DAI'), 2)).toBe(
        'hostpay: asset update needs at least one of --name, --image, --precision, --crypto/--fiat, --active/--inactive',
      );
      expect(failure(await run('asset', 'add', 'DAI', '--name', 'Again', '--precision', '2'))).toMatch(
        /^hostpay: INVALID_BODY: asset DAI already exists: .* \(request id req_\w+\)$/,
      );
      expect(failure(await run('asset', 'add', 'GBP', '--name', 'Pound', '--precision', '19'), 2)).toMatch(
        /--precision <n>.* must be a whole number from 0 to 18/,
      );
      expect(failure(await run('asset', 'update', 'NOPE', '--name', 'x'))).toMatch(
        /^hostpay: NOT_FOUND: asset NOPE does not exist/,
      );
    });

    it('chain add, list, update, set-xpub (shared EVM key), show-xpub; bad keys refused in one line', async () => {
      expect(text(await run('chain', 'add', 'BSC', '--name', 'BNB Smart Chain', '--family', 'evm'))).toMatch(
        /^added chain BSC \(BNB Smart Chain\): evm mainnet, 12 confirmations, active, no xpub\nnext: hostpay chain set-xpub BSC KEY\n$/,
      );
      expect(
        json(
          await run(
            'chain',
            'add',
            'TBTC',
            '--name',
            'Bitcoin testnet',
            '--family',
            'btc',
            '--network-type',
            'testnet',
            '--confirmations',
            '1',
            '--json',
          ),
        ),
      ).toMatchObject({ family: 'btc', networkType: 'testnet', confirmationsRequired: '1', accountKey: null });
      expect(failure(await run('chain', 'add', 'SOL', '--name', 'Solana', '--family', 'solana'), 2)).toMatch(
        /Allowed choices are btc, evm, tron/,
      );

      expect(text(await run('chain', 'set-xpub', 'ETH', ETH_XPUB))).toMatch(
        /^chain ETH derives deposit addresses from xpub6DCoCpSu… \(fingerprint [0-9a-f]{8}, next index 0\)\n$/,
      );
      expect(text(await run('chain', 'set-xpub', 'bsc', ETH_XPUB))).toMatch(/next index 0; shared with ETH\)\n$/);
      const shown = text(await run('chain', 'show-xpub', 'BSC'));
      expect(shown).toContain(`xpub         ${ETH_XPUB}\n`);
      expect(shown).toMatch(/^shared by +BSC, ETH$/m);
      const zpub = json<{ xpub: string; accountKeyId: string }>(
        await run('chain', 'set-xpub', 'BTC', BTC.slip132!, '--json'),
      );
      expect(zpub.xpub).toBe(BTC.accountXpub);
      expect(
        json<{ accountKeyId: string }>(await run('chain', 'set-xpub', 'BTC', BTC.accountXpub, '--json')).accountKeyId,
      ).toBe(zpub.accountKeyId);
      for (const bad of vectors.invalidKeys) {
        expect(failure(await run('chain', 'set-xpub', bad.chain, bad.key))).toMatch(
          /^hostpay: INVALID_BODY: extended public key refused: .* \(request id req_\w+\)$/,
        );
      }
      expect(failure(await run('chain', 'show-xpub', 'TRON'))).toMatch(
        /^hostpay: NOT_FOUND: chain TRON has no extended public key yet: set one with .*hostpay chain set-xpub TRON KEY/,
      );

      const list = cells(text(await run('chain', 'list')));
      expect(list[0]).toEqual(['SYMBOL', 'NAME', 'FAMILY', 'NETWORK', 'CONFIRMATIONS', 'ACTIVE', 'XPUB', 'NEXT INDEX']);
      expect(list).toContainEqual([
        'BSC',
        'BNB Smart Chain',
        'evm',
        'mainnet',
        '12',
        'yes',
        `${ETH_XPUB.slice(0, 12)}…${ETH_XPUB.slice(-6)}`,
        '0',
      ]);
      expect(list).toContainEqual(['TRON', 'Tron', 'tron', 'mainnet', '19', 'yes', '-', '-']);
      expect(text(await run('chain', 'update', 'BSC', '--confirmations', '15', '--inactive'))).toMatch(
        /^updated chain BSC \(BNB Smart Chain\): evm mainnet, 15 confirmations, inactive, xpub xpub6DCoCpSu…/,
      );
      expect(failure(await run('chain', 'update', 'BSC'), 2)).toMatch(/^hostpay: chain update needs at least one of/);
      expect(
        json<{ explorerTxUrl: string | null }>(
          await run('chain', 'update', 'BSC', '--explorer-tx-url', 'https://bscscan.com/tx/{tx}', '--json'),
        ).explorerTxUrl,
      ).toBe('https://bscscan.com/tx/{tx}');
      expect(failure(await run('chain', 'update', 'BSC', '--explorer-tx-url', 'http://bscscan.com/tx/{tx}'))).toMatch(
        /^hostpay: INVALID_BODY: explorerTxUrl must be an https URL/,
      );
      expect(
        json<{ explorerTxUrl: string | null }>(await run('chain', 'update', 'BSC', '--explorer-tx-url', '', '--json'))
          .explorerTxUrl,
      ).toBeNull();
      expect(failure(await run('chain', 'update', 'TBTC', '--network-type', 'devnet'), 2)).toMatch(
        /Allowed choices are mainnet, testnet, regtest/,
      );
    });

    it('network add, list, update; address list; every change audited under the operator', async () => {
      const added = json<{ id: string; tokenContract: string }>(
        await run(
          'network',
          'add',
          '--asset',
          'DAI',
          '--chain',
          'BSC',
          '--name',
          'BEP20',
          '--token-contract',
          '0xdac17f958d2ee523a2206206994597c13d831ec7',
          '--json',
        ),
      );
      expect(added.tokenContract).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
      expect(cells(text(await run('network', 'list', '--chain', 'BSC')))).toEqual([
        ['ID', 'ASSET', 'CHAIN', 'NAME', 'CONTRACT', 'DEPOSITS'],
        [added.id, 'DAI', 'BSC', 'BEP20', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'yes'],
      ]);
      expect(text(await run('network', 'update', added.id, '--native', '--no-deposits'))).toBe(
        `updated network ${added.id}: DAI on BSC (BEP20), native coin, deposits off\n`,
      );
      expect(text(await run('network', 'update', added.id, '--deposits', '--name', 'BSC'))).toBe(
        `updated network ${added.id}: DAI on BSC (BSC), native coin, deposits on\n`,
      );
      expect(
        failure(
          await run(
            'network',
            'add',
            '--asset',
            'DAI',
            '--chain',
            'TRON',
            '--name',
            'TRC20',
            '--token-contract',
            '0x12',
          ),
        ),
      ).toMatch(/^hostpay: INVALID_BODY: tokenContract on TRON must be a base58check address starting with T/);
      expect(failure(await run('network', 'update', added.id), 2)).toMatch(
        /^hostpay: network update needs at least one of/,
      );
      expect(
        cells(text(await run('network', 'list', '--asset', 'USDT')))
          .slice(1)
          .map((r) => r[2]),
      ).toEqual(['ETH', 'TRON']);

      expect(text(await run('address', 'list'))).toBe(
        'no deposit addresses yet: checkouts take one per payment option from the chain xpub\n',
      );
      expect(json(await run('address', 'list', '--chain', 'ETH', '--json'))).toEqual({ items: [], nextCursor: null });

      const actions = json<{ items: { operator: string; action: string }[] }>(
        await run('audit', 'list', '--object-type', 'chain', '--json'),
      ).items;
      expect(actions.map((e) => e.action)).toEqual([
        'chain.create',
        'chain.create',
        'chain.set_xpub',
        'chain.set_xpub',
        'chain.set_xpub',
        'chain.set_xpub',
        'chain.update',
        // The explorer link set, then removed (the chain test above).
        'chain.update',
        'chain.update',
      ]);
      expect(new Set(actions.map((e) => e.operator))).toEqual(new Set([target.operator]));
    });

    it('chain watch, show-watch, watches, unwatch: the node URL and API key from the environment, shown masked or not at all', async () => {
      const key = '0123456789abcdef0123456789abcdef';
      const apiKey = 'fedcba9876543210fedcba9876543210';
      expect(text(await run('chain', 'watches'))).toBe(
        'no chain is watched: hostpay chain watch ETH --rpc-url-env ETH_RPC_URL\n',
      );
      const watched = json<{ rpcUrl: string; tokens: { asset: string }[]; confirmations: string }>(
        await target.runEnv(
          { ETH_NODE: `http://127.0.0.1:8545/v3/${key}`, ETH_KEY: apiKey },
          'chain',
          'watch',
          'ETH',
          '--rpc-url-env',
          'ETH_NODE',
          '--api-key-env',
          'ETH_KEY',
          '--network-id',
          '1',
          '--allow-private-rpc',
          '--token',
          'USDT',
          '--confirmations',
          '3',
          '--poll-ms',
          '1000',
          '--json',
        ),
      );
      expect(watched).toMatchObject({
        kind: 'evm-rpc',
        apiKeySet: true,
        networkId: '1',
        rpcUrl: 'http://127.0.0.1:8545/v3/***',
        tokens: [{ asset: 'USDT' }],
        confirmations: '3',
      });
      const shown = text(await run('chain', 'show-watch', 'ETH'));
      expect(shown).toMatch(/node url\s+http:\/\/127\.0\.0\.1:8545\/v3\/\*\*\*/);
      expect(shown).toMatch(/kind\s+evm-rpc/);
      expect(shown).toMatch(/api key\s+set \(sealed\)/);
      expect(shown).not.toContain(apiKey);
      expect(shown).toMatch(/native\s+ETH \(18 decimals\)/);
      expect(cells(text(await run('chain', 'watches')))[1]?.slice(0, 6)).toEqual([
        'ETH',
        'evm-rpc',
        'http://127.0.0.1:8545/v3/***',
        'USDT',
        'ETH',
        'standby',
      ]);
      expect(
        failure(
          await run(
            'chain',
            'watch',
            'BTC',
            '--kind',
            'evm-rpc',
            '--url',
            'http://127.0.0.1:8545',
            '--allow-private-rpc',
          ),
        ),
      ).toMatch(/^hostpay: INVALID_BODY: kind evm-rpc talks to evm nodes, but BTC is a btc chain/);
      expect(failure(await run('chain', 'watch', 'ETH', '--rpc-url-env', 'NOT_SET_ANYWHERE'), 2)).toMatch(
        /NOT_SET_ANYWHERE: that environment variable is not set/,
      );
      expect(text(await run('chain', 'unwatch', 'ETH'))).toMatch(/^chain ETH is no longer watched/);
      expect(failure(await run('chain', 'show-watch', 'ETH'))).toMatch(/^hostpay: NOT_FOUND: chain ETH is not watched/);
      const audit = await run('audit', 'list', '--json');
      expect(audit.stdout).not.toContain(key);
      expect(audit.stdout).not.toContain(apiKey);
    });

    it('chain set-hot-wallet, show-hot-wallet, remove-hot-wallet: the key from a file or the environment, never printed', async () => {
      // anvil's third default account: a well-known test key.
      const hotKey = '5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
      const address = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
      const dir = tempDir();
      try {
        const file = join(dir.dir, 'hot.key');
        writeFileSync(file, `0x${hotKey}\n`, { mode: 0o600 });
        const fromFile = await run('chain', 'set-hot-wallet', 'ETH', '--private-key-file', file);
        expect(text(fromFile)).toBe(
          `chain ETH sends payouts from ${address}: fund it with the coin for gas and the assets it pays\n`,
        );
        const fromEnv = json<{ chain: string; address: string }>(
          await target.runEnv(
            { HOT_KEY: hotKey },
            'chain',
            'set-hot-wallet',
            'eth',
            '--private-key-env',
            'HOT_KEY',
            '--json',
          ),
        );
        expect(fromEnv).toEqual({ chain: 'ETH', address });
        expect(text(await run('chain', 'show-hot-wallet', 'ETH'))).toMatch(new RegExp(`address\\s+${address}`));
        expect(failure(await run('chain', 'set-hot-wallet', 'ETH'), 2)).toMatch(/exactly one of --private-key-file/);
        writeFileSync(file, 'not a key at all'.padEnd(64, '-'));
        const refused = failure(await run('chain', 'set-hot-wallet', 'ETH', '--private-key-file', file));
        expect(refused).toMatch(/^hostpay: INVALID_BODY: privateKey must be 32 bytes in hex/);
        expect(refused).not.toContain('not a key');
        const generated = json<{ address: string }>(
          await run('chain', 'set-hot-wallet', 'ETH', '--generate', '--json'),
        );
        expect(generated.address).toMatch(/^0x[0-9a-f]{40}$/);
        expect(generated.address).not.toBe(address);
        expect(text(await run('chain', 'remove-hot-wallet', 'ETH'))).toBe(
          `chain ETH has no hot wallet any more (it was ${generated.address})\n`,
        );
        expect(failure(await run('chain', 'show-hot-wallet', 'ETH'))).toMatch(
          /^hostpay: NOT_FOUND: chain ETH has no hot wallet/,
        );
        const audit = await run('audit', 'list', '--json');
        expect(audit.stdout).toContain(address);
        expect(audit.stdout).not.toContain(hotKey);
        expect(fromFile.stdout + fromFile.stderr).not.toContain(hotKey);
      } finally {
        dir.remove();
      }
    });
  });
}

catalogScenario('catalog commands on the local store', async () => {
  const data = tempDir();
  return {
    run: (...args) => cli([...args, '--data-dir', data.dir]),
    runEnv: (env, ...args) => cli([...args, '--data-dir', data.dir], env),
    operator: `cli:${userInfo().username}`,
    close: async () => data.remove(),
  };
});

catalogScenario('catalog commands through the admin API (--admin-url)', async () => {
  const server = await startAdminServer(`alice:${TOKEN}`);
  return {
    run: (...args) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN }),
    runEnv: (env, ...args) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN, ...env }),
    operator: 'alice',
    close: () => server.close(),
  };
});

describe('address list', () => {
  let server: AdminServer;
  const remote = (...args: string[]): Promise<Result> =>
    cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN });
  beforeAll(async () => {
    server = await startAdminServer(`alice:${TOKEN}`);
  });
  afterAll(() => server.close());

  it('shows each address with its chain, index, key and checkout, by pages and filters', async () => {
    const key = json<{ accountKeyId: string }>(
      await remote('chain', 'set-xpub', 'ETH', ETH_XPUB, '--json'),
    ).accountKeyId;
    const { store } = server.services;
    const eth = await store.db.selectFrom('chains').selectAll().where('symbol', '=', 'ETH').executeTakeFirstOrThrow();
    const taken = [];
    for (const checkoutId of ['chk_1', 'chk_2'])
      taken.push(
        await store.writeTransaction((trx) =>
          allocateAddress(
            trx,
            server.services.box,
            eth,
            { checkoutId, optionId: `opt_${checkoutId}` },
            new Date().toISOString(),
          ),
        ),
      );
    const table = cells(text(await remote('address', 'list', '--chain', 'eth')));
    expect(table[0]).toEqual(['ADDRESS', 'CHAIN', 'INDEX', 'KEY', 'CHECKOUT', 'OPTION', 'CREATED']);
    expect(table.slice(1).map((r) => r.slice(0, 6))).toEqual([
      [taken[0]!.address, 'ETH', '0', key, 'chk_1', 'opt_chk_1'],
      [taken[1]!.address, 'ETH', '1', key, 'chk_2', 'opt_chk_2'],
    ]);
    const first = json<{ items: { index: string }[]; nextCursor: string }>(
      await remote('address', 'list', '--limit', '1', '--json'),
    );
    expect(first.items).toEqual([expect.objectContaining({ index: '0', chain: 'ETH' })]);
    expect(json(await remote('address', 'list', '--limit', '1', '--cursor', first.nextCursor, '--json'))).toEqual({
      items: [expect.objectContaining({ index: '1' })],
      nextCursor: null,
    });
    expect(
      json<{ items: unknown[] }>(await remote('address', 'list', '--checkout', 'chk_2', '--json')).items,
    ).toHaveLength(1);
    expect(failure(await remote('address', 'list', '--chain', 'NOPE'))).toMatch(
      /^hostpay: NOT_FOUND: chain NOPE does not exist/,
    );
  });

  it('set-xpub help says where to find the key', async () => {
    const help = text(await cli(['chain', 'set-xpub', '--help']));
    expect(help).toContain("m/84'/0'/0'");
    expect(help).toContain('Sparrow');
  });
});
