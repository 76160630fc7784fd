import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostpayError } from '../../src/errors.js';
import type { Services } from '../../src/services.js';
import { DIALECTS, tempServices, type Dialect } from '../helpers.js';
import { balances, eventsOf, payoutWorld, type PayoutWorld } from './world.js';

/**
 * Two requests racing for the same money never both pass (spec/payouts.md, "States"): 50 payout
 * requests of 10 against a wallet of 100 → exactly 10 accepted, exactly 100 frozen, 40 refused
 * with 422 INSUFFICIENT_FUNDS, whatever the interleaving; on PostgreSQL also from two instances
 * over one database, where only the database's locks can decide.
 */
describe.each(DIALECTS)('racing payout requests on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let services: Services;
  let w: PayoutWorld;
  const extra: Services[] = [];

  beforeEach(async () => {
    env = await tempServices(dialect);
    services = env.services;
    w = await payoutWorld(services);
  });
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
    await env.cleanup();
  });

  async function race(instances: Services[]) {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        instances[i % instances.length]!.payouts.create(w.merchantId, {
          walletId: w.walletId,
          amount: '10',
          destinationId: w.destinationId,
        }).then(
          () => 'accepted',
          (e: unknown) => (e instanceof HostpayError ? `${e.status} ${e.code}` : String(e)),
        ),
      ),
    );
    const count = (what: string) => outcomes.filter((o) => o === what).length;
    expect(count('accepted'), outcomes.join(', ')).toBe(10);
    expect(count('422 INSUFFICIENT_FUNDS')).toBe(40);
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '100' });
    const rows = await services.store.db
      .selectFrom('payouts')
      .select('id')
      .where('merchant_id', '=', w.merchantId)
      .execute();
    expect(rows).toHaveLength(10);
    const freezes = (await eventsOf(services, w.merchantId)).filter(
      (e) => e.type === 'wallet.balance_changed' && e.object.kind === 'freeze',
    );
    expect(freezes).toHaveLength(10);
    // Each freeze event reports the frozen part after it: 10, 20, … 100 in commit order.
    expect(freezes.map((e) => e.object.freezeAmount)).toEqual(Array.from({ length: 10 }, (_, i) => 10 * (i + 1)));
  }

  it('50 requests against a wallet that funds 10: exactly 10 accepted, the freeze exact, the rest 422', async () => {
    await race([services]);
  });

  if (dialect === 'postgres')
    it('the same across two instances over one database', async () => {
      const second = await env.reopen();
      extra.push(second);
      await race([services, second]);
    });
});
