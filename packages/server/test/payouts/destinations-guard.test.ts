import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostpayError } from '../../src/errors.js';
import type { Services } from '../../src/services.js';
import { DIALECTS, tempServices, type Dialect } from '../helpers.js';
import { balances, ctx, eventsOf, payoutWorld, TRON_ADDRESS, type PayoutWorld } from './world.js';

/**
 * Where money may not go (issue 42, item 4), on both stores: nothing leaves a deactivated wallet,
 * burn addresses are refused everywhere an address enters, and the address book holds one live
 * entry per address, so a second add cannot shadow the active one with an entry cooling off.
 */
const EVM_BURNS = [
  '0x0000000000000000000000000000000000000000',
  '0x000000000000000000000000000000000000dEaD',
  '0x000000000000000000000000000000000000dead',
  '0x000000000000000000000000000000000000DEAD',
  '0x0000000000000000000000000000000000000001',
  '0xdead000000000000000000000000000000000000',
  '0xdead000000000000000042069420694206942069',
];
const TRON_BLACK_HOLE = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const BTC_BURNS = ['1111111111111111111114oLvT2', 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9e75rs'];

async function refusal(p: Promise<unknown>): Promise<HostpayError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HostpayError);
  return err as HostpayError;
}

describe.each(DIALECTS)('where money may not go, on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let services: Services;
  let w: PayoutWorld;

  beforeEach(async () => {
    env = await tempServices(dialect);
    services = env.services;
    w = await payoutWorld(services);
  });
  afterEach(() => env.cleanup());

  const pay = (body: { destinationId?: string; destination?: string }) =>
    services.payouts.create(w.merchantId, { walletId: w.walletId, amount: '10', ...body });
  const bookOf = (address: string) =>
    services.store.db
      .selectFrom('payout_destinations')
      .selectAll()
      .where('merchant_id', '=', w.merchantId)
      .where('address', '=', address)
      .execute();

  it('a deactivated wallet pays nothing: 409 WALLET_INACTIVE by id or address, nothing frozen; activated again, it pays', async () => {
    await services.admin.setWalletActive(w.walletId, false, ctx);
    const events = (await eventsOf(services, w.merchantId)).length;
    for (const body of [{ destinationId: w.destinationId }, { destination: TRON_ADDRESS }]) {
      const err = await refusal(pay(body));
      expect(err.code).toBe('WALLET_INACTIVE');
      expect(err.status).toBe(409);
      expect(err.details).toEqual({ walletId: w.walletId });
      expect(err.message).toMatch(/deactivated/);
    }
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '0' });
    expect(await eventsOf(services, w.merchantId)).toHaveLength(events);
    await services.admin.setWalletActive(w.walletId, true, ctx);
    expect((await pay({ destinationId: w.destinationId })).status).toBe('pending_approval');
  });

  it('burn addresses are refused as book entries (400 INVALID_ADDRESS, reason burn_address), nothing stored', async () => {
    const cases: [string, string][] = [
      ...EVM_BURNS.map((a): [string, string] => ['ETH', a]),
      ['TRON', TRON_BLACK_HOLE],
      ...BTC_BURNS.map((a): [string, string] => ['BTC', a]),
    ];
    for (const [chain, address] of cases) {
      const err = await refusal(services.payouts.addDestination(w.merchantId, { chain, address }));
      expect(err.code, `${chain} ${address}`).toBe('INVALID_ADDRESS');
      expect(err.details, address).toEqual({ chain, reason: 'burn_address' });
      expect(err.message).toMatch(/never be spent/);
    }
    const rows = await services.store.db
      .selectFrom('payout_destinations')
      .select('address')
      .where('merchant_id', '=', w.merchantId)
      .execute();
    expect(rows.map((r) => r.address)).toEqual([TRON_ADDRESS]);
    // Ordinary addresses next to them still pass.
    for (const [chain, address] of [
      ['ETH', '0x0000000000000000000000000000000000010000'],
      ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ] as const)
      expect((await services.payouts.addDestination(w.merchantId, { chain, address })).status).toBe('active');
  });

  it('a burn address already in the book (stored before the rule) is not paid, nothing frozen', async () => {
    await services.store.db
      .updateTable('payout_destinations')
      .set({ address: TRON_BLACK_HOLE })
      .where('id', '=', w.destinationId)
      .execute();
    const err = await refusal(pay({ destinationId: w.destinationId }));
    expect(err.code).toBe('INVALID_ADDRESS');
    expect(err.details).toMatchObject({ reason: 'burn_address' });
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '0' });
  });

  it('adding an address already in the book answers its entry and writes nothing; paying by address stays possible', async () => {
    await services.admin.updateMerchant(w.merchantId, { payoutCoolingOffHours: 24 }, ctx);
    const events = (await eventsOf(services, w.merchantId)).length;
    const again = await services.payouts.addOrFindDestination(w.merchantId, {
      chain: 'TRON',
      address: ` ${TRON_ADDRESS}`,
      label: 'again',
    });
    expect(again.created).toBe(false);
    expect(again.destination).toMatchObject({ id: w.destinationId, status: 'active', label: null });
    expect(await bookOf(TRON_ADDRESS)).toHaveLength(1);
    expect(await eventsOf(services, w.merchantId)).toHaveLength(events);
    const p = await pay({ destination: TRON_ADDRESS });
    expect(p.destinationId).toBe(w.destinationId);
  });

  it('EVM: a lower-case or upper-case spelling of an address in the book finds its EIP-55 entry', async () => {
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    const first = await services.payouts.addOrFindDestination(w.merchantId, { chain: 'ETH', address: checksummed });
    expect(first.created).toBe(true);
    for (const spelling of [checksummed.toLowerCase(), `0x${checksummed.slice(2).toUpperCase()}`]) {
      const again = await services.payouts.addOrFindDestination(w.merchantId, { chain: 'ETH', address: spelling });
      expect(again).toMatchObject({ created: false, destination: { id: first.destination.id } });
    }
    expect(await bookOf(checksummed)).toHaveLength(1);
  });

  it('a revoked address added again is a new entry cooling off', async () => {
    await services.admin.updateMerchant(w.merchantId, { payoutCoolingOffHours: 24 }, ctx);
    await services.payouts.revokeDestination(w.merchantId, w.destinationId);
    const again = await services.payouts.addOrFindDestination(w.merchantId, { chain: 'TRON', address: TRON_ADDRESS });
    expect(again.created).toBe(true);
    expect(again.destination.status).toBe('cooling_off');
    expect((await refusal(pay({ destination: TRON_ADDRESS }))).code).toBe('DESTINATION_NOT_ACTIVE');
  });

  it('two adds of one new address racing make one entry', async () => {
    const address = 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9';
    const both = await Promise.all(
      [0, 1, 2, 3].map(() => services.payouts.addOrFindDestination(w.merchantId, { chain: 'TRON', address })),
    );
    expect(both.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(both.map((r) => r.destination.id)).size).toBe(1);
    expect(await bookOf(address)).toHaveLength(1);
  });

  it('a book holding an active entry and a newer one cooling off (written before the rule): paying by address takes the active one', async () => {
    const later = new Date(Date.now() + 3600_000).toISOString();
    await services.store.db
      .insertInto('payout_destinations')
      .values({
        id: 'dst_shadow',
        merchant_id: w.merchantId,
        chain_id: (await bookOf(TRON_ADDRESS))[0]!.chain_id,
        address: TRON_ADDRESS,
        label: null,
        status: 'cooling_off',
        active_from: new Date(Date.now() + 24 * 3600_000).toISOString(),
        created_at: later,
        updated_at: later,
      })
      .execute();
    const p = await pay({ destination: TRON_ADDRESS });
    expect(p.destinationId).toBe(w.destinationId);
    const found = await services.payouts.addOrFindDestination(w.merchantId, { chain: 'TRON', address: TRON_ADDRESS });
    expect(found).toMatchObject({ created: false, destination: { id: w.destinationId } });
  });
});
