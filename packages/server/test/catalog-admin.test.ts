import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allocateAddress } from '../src/features/addresses/allocate.js';
import { readVectorFile } from '../../protocol/test/vectors.js';
import { DIALECTS, type Dialect } from './helpers.js';
import { createAdminFixture, errorOf, resultOf, type AdminFixture } from './http-helpers/admin-fixture.js';

/** The catalog operator API end to end over HTTP, on every store dialect: the write path, its audit and its effects. */
interface ChainVector {
  chain: string;
  network: string;
  accountXpub: string;
  slip132?: string;
  addresses: { index: number; address: string }[];
}
const vectors = readVectorFile<{
  chains: ChainVector[];
  invalidKeys: { chain: string; network: string; key: string; why: string }[];
}>('addresses.json');
const vector = (chain: string, network = 'mainnet') =>
  vectors.chains.find((c) => c.chain === chain && c.network === network)!;
const USDT_ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

describe.each(DIALECTS)('catalog admin API on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture(dialect);
  });
  afterEach(() => fx.close());
  const call: AdminFixture['call'] = (...args) => fx.call(...args);
  const audit = async (objectId: string) =>
    resultOf(await call('GET', `/audit?objectId=${objectId}`)).items.map((e: { action: string }) => e.action);

  it('assets: add, read, list, change, with clear refusals; every write audited', async () => {
    const dai = resultOf(await call('POST', '/assets', { body: { symbol: 'dai', name: ' Dai ', precision: 18 } }), 201);
    expect(dai).toEqual({
      id: expect.stringMatching(/^ast_/),
      symbol: 'DAI',
      name: 'Dai',
      image: 'dai.png',
      precision: 18,
      isCrypto: true,
      active: true,
    });
    expect(resultOf(await call('GET', '/assets/Dai'))).toEqual(dai);
    expect(resultOf(await call('GET', '/assets')).map((a: { symbol: string }) => a.symbol)).toEqual([
      'BTC',
      'DAI',
      'ETH',
      'EUR',
      'TRX',
      'USD',
      'USDC',
      'USDT',
    ]);
    const changed = resultOf(
      await call('PATCH', '/assets/DAI', {
        body: { name: 'Dai Stablecoin', image: 'dai-2.svg', precision: 6, active: false },
      }),
    );
    expect(changed).toMatchObject({ name: 'Dai Stablecoin', image: 'dai-2.svg', precision: 6, active: false });
    expect(await audit(dai.id)).toEqual(['asset.create', 'asset.update']);

    expect(
      errorOf(
        await call('POST', '/assets', { body: { symbol: 'DAI', name: 'Again', precision: 2 } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/^asset DAI already exists/);
    expect(
      errorOf(
        await call('POST', '/assets', { body: { symbol: 'GBP', name: 'Pound', precision: 19 } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/precision must be a whole number of decimal places from 0 to 18, got 19/);
    errorOf(
      await call('POST', '/assets', { body: { symbol: 'GBP', name: 'Pound', precision: -1 } }),
      400,
      'INVALID_BODY',
    );
    errorOf(
      await call('POST', '/assets', { body: { symbol: 'GBP', name: 'Pound', precision: 2.5 } }),
      400,
      'INVALID_BODY',
    );
    expect(
      errorOf(
        await call('POST', '/assets', { body: { symbol: 'GBP', name: 'Pound', precision: 2, image: '../etc/passwd' } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/image must be a file name/);
    errorOf(await call('POST', '/assets', { body: { symbol: 'G', name: 'Pound', precision: 2 } }), 400, 'INVALID_BODY');
    errorOf(await call('POST', '/assets', { body: { symbol: 'GBP', name: '  ', precision: 2 } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', '/assets/DAI', { body: {} }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', '/assets/DAI', { body: { symbol: 'XDAI' } }), 400, 'INVALID_BODY');
    expect(errorOf(await call('GET', '/assets/NOPE'), 404, 'NOT_FOUND').message).toBe('asset NOPE does not exist');
    errorOf(await call('PATCH', '/assets/NOPE', { body: { name: 'x' } }), 404, 'NOT_FOUND');
    // Lowering the precision of an asset in use would leave finer amounts behind; raising is fine.
    const merchant = resultOf(await call('POST', '/merchants', { body: { name: 'Shop' } }), 201).id;
    resultOf(await call('POST', `/merchants/${merchant}/wallets`, { body: { asset: 'USDT', chain: 'TRON' } }), 201);
    expect(
      errorOf(await call('PATCH', '/assets/USDT', { body: { precision: 2 } }), 400, 'INVALID_BODY').message,
    ).toMatch(/can no longer be lowered/);
    expect(resultOf(await call('PATCH', '/assets/USDT', { body: { precision: 8 } })).precision).toBe(8);
  });

  it('chains: the explorer link template is none by default, https with {tx} once, and can be removed', async () => {
    expect(resultOf(await call('GET', '/chains/TRON')).explorerTxUrl).toBeNull();
    const template = 'https://tronscan.org/#/transaction/{tx}';
    const set = resultOf(await call('PATCH', '/chains/TRON', { body: { explorerTxUrl: template } }));
    expect(set.explorerTxUrl).toBe(template);
    expect(
      resultOf(await call('GET', '/chains')).find((c: { symbol: string }) => c.symbol === 'TRON').explorerTxUrl,
    ).toBe(template);
    for (const bad of [
      'http://tronscan.org/tx/{tx}',
      'https://tronscan.org/tx/',
      'https://tronscan.org/{tx}/{tx}',
      'javascript:alert(1)//{tx}',
      'https://user:pw@tronscan.org/{tx}',
      'https://tronscan.org/tx/{tx}"><script>',
      `https://e.org/${'a'.repeat(300)}{tx}`,
    ])
      expect(
        errorOf(await call('PATCH', '/chains/TRON', { body: { explorerTxUrl: bad } }), 400, 'INVALID_BODY').message,
        bad,
      ).toMatch(/explorerTxUrl/);
    expect(resultOf(await call('GET', '/chains/TRON')).explorerTxUrl).toBe(template);
    expect(resultOf(await call('PATCH', '/chains/TRON', { body: { explorerTxUrl: null } })).explorerTxUrl).toBeNull();
    const created = resultOf(
      await call('POST', '/chains', {
        body: { symbol: 'XPL', name: 'Explorer chain', family: 'evm', explorerTxUrl: 'https://scan.example/tx/{tx}' },
      }),
      201,
    );
    expect(created.explorerTxUrl).toBe('https://scan.example/tx/{tx}');
  });

  it('chains: confirmations default by family, family fixed, ranges and names checked', async () => {
    for (const [symbol, family, confirmations] of [
      ['LTC', 'btc', 2],
      ['BSC', 'evm', 12],
      ['TRONT', 'tron', 19],
    ] as const) {
      const chain = resultOf(await call('POST', '/chains', { body: { symbol, name: symbol, family } }), 201);
      expect(chain).toMatchObject({
        symbol,
        family,
        networkType: 'mainnet',
        confirmationsRequired: confirmations,
        active: true,
        accountKey: null,
      });
      expect(await audit(chain.id)).toEqual(['chain.create']);
    }
    const regtest = resultOf(
      await call('POST', '/chains', {
        body: {
          symbol: 'btcr',
          name: 'Bitcoin regtest',
          family: 'BTC',
          networkType: 'regtest',
          confirmationsRequired: 1,
        },
      }),
      201,
    );
    expect(regtest).toMatchObject({ symbol: 'BTCR', family: 'btc', networkType: 'regtest', confirmationsRequired: 1 });
    expect(resultOf(await call('GET', '/chains')).map((c: { symbol: string }) => c.symbol)).toEqual([
      'BSC',
      'BTC',
      'BTCR',
      'ETH',
      'LTC',
      'TRON',
      'TRONT',
    ]);
    expect(resultOf(await call('GET', '/chains/eth'))).toMatchObject({
      symbol: 'ETH',
      family: 'evm',
      confirmationsRequired: 12,
    });

    const patched = resultOf(
      await call('PATCH', '/chains/BSC', {
        body: {
          name: 'BNB Smart Chain',
          confirmationsRequired: 15,
          family: 'evm',
          networkType: 'testnet',
          active: false,
        },
      }),
    );
    expect(patched).toMatchObject({
      name: 'BNB Smart Chain',
      confirmationsRequired: 15,
      networkType: 'testnet',
      active: false,
    });
    expect(
      errorOf(await call('PATCH', '/chains/BSC', { body: { family: 'tron' } }), 400, 'INVALID_BODY').message,
    ).toMatch(/family of chain BSC is fixed after creation/);
    expect(
      errorOf(
        await call('POST', '/chains', { body: { symbol: 'SOL', name: 'Solana', family: 'solana' } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/family must be one of btc, evm, tron/);
    expect(
      errorOf(
        await call('POST', '/chains', { body: { symbol: 'X1', name: 'x', family: 'evm', networkType: 'devnet' } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/networkType must be one of mainnet, testnet, regtest/);
    expect(
      errorOf(
        await call('POST', '/chains', { body: { symbol: 'X1', name: 'x', family: 'evm', confirmationsRequired: 0 } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/from 1 to 1000/);
    errorOf(
      await call('POST', '/chains', { body: { symbol: 'X1', name: 'x', family: 'evm', confirmationsRequired: 1001 } }),
      400,
      'INVALID_BODY',
    );
    expect(
      errorOf(
        await call('POST', '/chains', { body: { symbol: 'eth', name: 'Again', family: 'evm' } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/^chain ETH already exists/);
    errorOf(await call('GET', '/chains/NOPE'), 404, 'NOT_FOUND');
    errorOf(await call('PATCH', '/chains/NOPE', { body: { name: 'x' } }), 404, 'NOT_FOUND');
    errorOf(await call('GET', '/chains/a$b'), 400, 'INVALID_QUERY');
  });

  it('networks: EIP-55 contracts stored, TRON checked, BTC has none; merchants can hold the new pair', async () => {
    resultOf(await call('POST', '/assets', { body: { symbol: 'DAI', name: 'Dai', precision: 18 } }), 201);
    resultOf(await call('POST', '/chains', { body: { symbol: 'BSC', name: 'BNB Smart Chain', family: 'evm' } }), 201);
    const net = resultOf(
      await call('POST', '/networks', {
        body: { asset: 'dai', chain: 'bsc', name: 'BEP20', tokenContract: USDT_ETH.toLowerCase() },
      }),
      201,
    );
    expect(net).toEqual({
      id: expect.stringMatching(/^net_/),
      asset: 'DAI',
      chain: 'BSC',
      name: 'BEP20',
      tokenContract: USDT_ETH,
      depositEnabled: true,
    });
    expect(resultOf(await call('GET', `/networks/${net.id}`))).toEqual(net);
    expect(resultOf(await call('GET', '/networks?chain=BSC'))).toEqual([net]);
    expect(resultOf(await call('GET', '/networks?asset=USDT')).map((n: { chain: string }) => n.chain)).toEqual([
      'ETH',
      'TRON',
    ]);
    expect(
      resultOf(await call('GET', '/networks')).find((n: { id: string }) => n.id === 'net_usdt_tron'),
    ).toMatchObject({ tokenContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });

    const wrongCase = USDT_ETH.replace('dAC', 'Dac');
    expect(
      errorOf(await call('PATCH', `/networks/${net.id}`, { body: { tokenContract: wrongCase } }), 400, 'INVALID_BODY')
        .message,
    ).toMatch(/fails its EIP-55 checksum.*expected 0xdAC17F958D2ee523a2206206994597C13D831ec7/);
    expect(
      errorOf(await call('PATCH', `/networks/${net.id}`, { body: { tokenContract: '0x1234' } }), 400, 'INVALID_BODY')
        .message,
    ).toMatch(/0x followed by 40 hex digits/);
    expect(
      errorOf(
        await call('POST', '/networks', {
          body: { asset: 'DAI', chain: 'TRON', name: 'TRC20', tokenContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6x' },
        }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/base58check address starting with T/);
    expect(
      errorOf(
        await call('POST', '/networks', { body: { asset: 'DAI', chain: 'BTC', name: 'x', tokenContract: USDT_ETH } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/Bitcoin chains have no token contracts/);
    expect(
      errorOf(
        await call('POST', '/networks', { body: { asset: 'DAI', chain: 'BSC', name: 'again' } }),
        400,
        'INVALID_BODY',
      ).message,
    ).toMatch(/DAI is already on BSC/);
    expect(
      errorOf(await call('POST', '/networks', { body: { asset: 'NOPE', chain: 'BSC', name: 'x' } }), 404, 'NOT_FOUND')
        .message,
    ).toBe('asset NOPE does not exist');
    errorOf(await call('POST', '/networks', { body: { asset: 'DAI', chain: 'NOPE', name: 'x' } }), 404, 'NOT_FOUND');
    errorOf(await call('GET', '/networks/net_nobody'), 404, 'NOT_FOUND');
    const native = resultOf(
      await call('PATCH', `/networks/${net.id}`, {
        body: { tokenContract: null, depositEnabled: false, name: 'Native' },
      }),
    );
    expect(native).toMatchObject({ tokenContract: null, depositEnabled: false, name: 'Native' });
    const tron = resultOf(
      await call('POST', '/networks', {
        body: { asset: 'DAI', chain: 'TRON', name: 'TRC20', tokenContract: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8' },
      }),
      201,
    );
    expect(await audit(net.id)).toEqual(['network.create', 'network.update']);
    expect(await audit(tron.id)).toEqual(['network.create']);

    // Beyond the seven built-in pairs: a wallet of the new asset on the new chain.
    const merchant = resultOf(await call('POST', '/merchants', { body: { name: 'Shop' } }), 201).id;
    const wallet = resultOf(
      await call('POST', `/merchants/${merchant}/wallets`, { body: { asset: 'DAI', chain: 'BSC' } }),
      201,
    );
    expect(wallet).toMatchObject({
      asset: 'DAI',
      assetDetails: { name: 'Dai' },
      chain: { symbol: 'BSC', name: 'BNB Smart Chain' },
    });
    // Inactive assets and chains take no new wallets, and say how to change that.
    resultOf(await call('PATCH', '/assets/DAI', { body: { active: false } }));
    expect(
      errorOf(
        await call('POST', `/merchants/${merchant}/wallets`, { body: { asset: 'DAI', chain: 'TRON' } }),
        422,
        'UNSUPPORTED_CURRENCY',
      ).message,
    ).toMatch(/asset DAI is inactive/);
    resultOf(await call('PATCH', '/chains/ETH', { body: { active: false } }));
    expect(
      errorOf(
        await call('POST', `/merchants/${merchant}/wallets`, { body: { asset: 'USDT', chain: 'ETH' } }),
        422,
        'UNSUPPORTED_CURRENCY',
      ).message,
    ).toMatch(/chain ETH is inactive/);
  });

  it('the merchant wallet list shows a renamed asset or chain at once (cached answers dropped)', async () => {
    const merchant = resultOf(await call('POST', '/merchants', { body: { name: 'Shop' } }), 201).id;
    const key = resultOf(await call('POST', `/merchants/${merchant}/keys`, { body: {} }), 201);
    resultOf(await call('POST', `/merchants/${merchant}/wallets`, { body: { asset: 'USDT', chain: 'TRON' } }), 201);
    const wallets = async () => JSON.parse((await fx.merchantGet(key, '/api/v1/cp/wallets')).body).result[0];
    expect(await wallets()).toMatchObject({ assetDetails: { name: 'Tether USD' }, chain: { name: 'Tron' } });
    await wallets(); // now served from the cache
    resultOf(await call('PATCH', '/assets/USDT', { body: { name: 'Tether' } }));
    expect((await wallets()).assetDetails.name).toBe('Tether');
    resultOf(await call('PATCH', '/chains/TRON', { body: { name: 'TRON Mainnet' } }));
    expect((await wallets()).chain.name).toBe('TRON Mainnet');
  });

  it('xpubs: each invalid vector key refused with 400; xpub and zpub of one key are one row; shared EVM counter', async () => {
    for (const bad of vectors.invalidKeys) {
      const err = errorOf(
        await call('PUT', `/chains/${bad.chain}/xpub`, { body: { xpub: bad.key } }),
        400,
        'INVALID_BODY',
      );
      expect(err.message, bad.why).toMatch(/^extended public key refused: /);
    }
    expect(errorOf(await call('GET', '/chains/BTC/xpub'), 404, 'NOT_FOUND').message).toMatch(
      /has no extended public key yet: set one with/,
    );

    const btc = vector('BTC');
    const fromXpub = resultOf(await call('PUT', '/chains/BTC/xpub', { body: { xpub: btc.accountXpub } }));
    const fromZpub = resultOf(await call('PUT', '/chains/btc/xpub', { body: { xpub: ` ${btc.slip132!}\n` } }));
    expect(fromZpub.accountKeyId).toBe(fromXpub.accountKeyId);
    expect(fromZpub).toMatchObject({
      chain: 'BTC',
      family: 'btc',
      networkType: 'mainnet',
      xpub: btc.accountXpub,
      nextIndex: 0,
      chains: ['BTC'],
    });
    expect(fromZpub.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(resultOf(await call('GET', '/chains/BTC/xpub'))).toEqual(fromZpub);
    // The chain view shows the key in part only.
    const chainRes = await call('GET', '/chains/BTC');
    expect(resultOf(chainRes).accountKey).toEqual({
      id: fromXpub.accountKeyId,
      preview: `${btc.accountXpub.slice(0, 12)}…${btc.accountXpub.slice(-6)}`,
      fingerprint: fromXpub.fingerprint,
      nextIndex: 0,
    });
    expect(chainRes.body).not.toContain(btc.accountXpub);
    const btcId = resultOf(chainRes).id;
    expect(await audit(btcId)).toEqual(['chain.set_xpub', 'chain.set_xpub']);
    // A testnet chain takes the tpub/vpub spelling and refuses the mainnet one.
    resultOf(
      await call('POST', '/chains', {
        body: { symbol: 'TBTC', name: 'Bitcoin testnet', family: 'btc', networkType: 'testnet' },
      }),
      201,
    );
    expect(
      errorOf(await call('PUT', '/chains/TBTC/xpub', { body: { xpub: btc.slip132! } }), 400, 'INVALID_BODY').message,
    ).toMatch(/mainnet key and this chain is testnet/);
    expect(
      resultOf(await call('PUT', '/chains/TBTC/xpub', { body: { xpub: vector('BTC', 'testnet').slip132! } })).xpub,
    ).toBe(vector('BTC', 'testnet').accountXpub);
    errorOf(await call('PUT', '/chains/NOPE/xpub', { body: { xpub: btc.accountXpub } }), 404, 'NOT_FOUND');
    // The network type is fixed once a key is set (keys and prefixes depend on it).
    expect(
      errorOf(await call('PATCH', '/chains/TBTC', { body: { networkType: 'regtest' } }), 400, 'INVALID_BODY').message,
    ).toMatch(/cannot change once it has an extended public key/);

    // Two EVM chains given the same xpub share the key and its counter: no address twice.
    const eth = vector('ETH');
    resultOf(await call('POST', '/chains', { body: { symbol: 'BSC', name: 'BNB Smart Chain', family: 'evm' } }), 201);
    const ethKey = resultOf(await call('PUT', '/chains/ETH/xpub', { body: { xpub: eth.accountXpub } }));
    const bscKey = resultOf(await call('PUT', '/chains/BSC/xpub', { body: { xpub: eth.accountXpub } }));
    expect(bscKey.accountKeyId).toBe(ethKey.accountKeyId);
    expect(bscKey.chains).toEqual(['BSC', 'ETH']);
    const store = fx.services.store;
    const chainRow = (symbol: string) =>
      store.db.selectFrom('chains').selectAll().where('symbol', '=', symbol).executeTakeFirstOrThrow();
    const take = async (symbol: string, checkoutId: string) => {
      const chain = await chainRow(symbol);
      return store.writeTransaction((trx) =>
        allocateAddress(
          trx,
          fx.services.box,
          chain,
          { checkoutId, optionId: `${checkoutId}_opt` },
          new Date().toISOString(),
        ),
      );
    };
    const a = await take('ETH', 'chk_a');
    const b = await take('BSC', 'chk_b');
    const c = await take('ETH', 'chk_c');
    expect([a.index, b.index, c.index]).toEqual([0, 1, 2]);
    expect([a.address, b.address, c.address]).toEqual(eth.addresses.slice(0, 3).map((v) => v.address));
    expect(resultOf(await call('GET', '/chains/ETH')).accountKey.nextIndex).toBe(3);

    // A new key starts its own counter; addresses already handed out keep theirs.
    const tron = vector('TRON');
    resultOf(await call('PATCH', '/chains/BSC', { body: { name: 'BSC' } }));
    const other = resultOf(await call('PUT', '/chains/BSC/xpub', { body: { xpub: tron.accountXpub } }));
    expect(other).toMatchObject({ nextIndex: 0, chains: ['BSC'] });
    expect(other.accountKeyId).not.toBe(ethKey.accountKeyId);
    const d = await take('BSC', 'chk_d');
    expect(d.index).toBe(0);

    // The operator's address list: all, by chain, by checkout, by pages.
    const all = resultOf(await call('GET', '/addresses'));
    expect(all.items.map((x: { address: string }) => x.address)).toEqual([a.address, b.address, c.address, d.address]);
    expect(all.items[1]).toEqual({
      id: expect.stringMatching(/^adr_/),
      address: b.address,
      chain: 'BSC',
      index: 1,
      accountKeyId: ethKey.accountKeyId,
      checkoutId: 'chk_b',
      optionId: 'chk_b_opt',
      createdAt: expect.any(String),
    });
    expect(resultOf(await call('GET', '/addresses?chain=eth')).items.map((x: { index: number }) => x.index)).toEqual([
      0, 2,
    ]);
    expect(resultOf(await call('GET', '/addresses?checkoutId=chk_d')).items).toEqual([
      expect.objectContaining({ chain: 'BSC', index: 0, accountKeyId: other.accountKeyId }),
    ]);
    const first = resultOf(await call('GET', '/addresses?limit=3'));
    expect(first.items).toHaveLength(3);
    expect(resultOf(await call('GET', `/addresses?limit=3&cursor=${first.nextCursor}`))).toEqual({
      items: [expect.objectContaining({ address: d.address })],
      nextCursor: null,
    });
    errorOf(await call('GET', '/addresses?chain=NOPE'), 404, 'NOT_FOUND');
    errorOf(await call('GET', '/addresses?limit=0'), 400, 'INVALID_QUERY');
  });
});
