import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { seedDemo } from '../../src/demo/seed.js';
import { tempServices, type TempEnv } from '../helpers.js';

// spec/commerce.md, "Invoices": numbers gap-free and unique per merchant under concurrency and
// across instances — 50 drafts finalized at once by two service instances over one PostgreSQL schema.
describe('invoice numbers on postgres, two instances', () => {
  let env: TempEnv;
  let second: Services;
  let merchantId: string;
  beforeAll(async () => {
    env = await tempServices('postgres', {}, { sandbox: true });
    second = await env.reopen();
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await env?.cleanup();
  });

  it('50 concurrent finalizes take INV-000001..INV-000050 exactly', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const d = await env.services.invoices.create(merchantId, {
        currency: 'EUR',
        lineItems: [{ description: `Item ${i}`, quantity: 1, unitAmount: '10' }],
      });
      ids.push(d.id as string);
    }
    const results = await Promise.all(
      ids.map((id, i) => (i % 2 === 0 ? env.services : second).invoices.finalize(merchantId, id)),
    );
    const numbers = results.map((r) => r.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
    const counter = await env.services.store.db
      .selectFrom('invoice_number_counters')
      .select('last_number')
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    expect(Number(counter.last_number)).toBe(50);
  }, 60_000);
});
