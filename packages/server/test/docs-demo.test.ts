import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCheckouts } from '../src/demo/checkouts.js';
import { seedDemo } from '../src/demo/seed.js';
import { tempServices, type TempEnv } from './helpers.js';

/** Issue 26, item 12: what docs/checkout.md says the demo seeds is counted from the seed itself. */
const MD = readFileSync(fileURLToPath(new URL('../../../docs/checkout.md', import.meta.url)), 'utf8');
const WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const count = (re: RegExp): number => {
  const word = re.exec(MD.replace(/\s+/g, ' '))?.[1];
  if (word === undefined) throw new Error(`docs/checkout.md does not say ${re}`);
  return WORDS[word] ?? Number(word);
};

let env: TempEnv;
let byStatus: Map<string, number>;
let unmatched: number;
beforeAll(async () => {
  env = await tempServices('sqlite', { expirySweepMs: 0 });
  const demo = await seedDemo(env.services, env.dataDir);
  await seedDemoCheckouts(env.services, demo.merchantId);
  const db = env.services.store.db;
  const rows = await db.selectFrom('checkouts').select(['status']).where('merchant_id', '=', demo.merchantId).execute();
  byStatus = new Map();
  for (const r of rows) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  unmatched = (await db.selectFrom('transfers').select('id').where('checkout_id', 'is', null).execute()).length;
}, 60_000);
afterAll(() => env.cleanup());

describe('docs/checkout.md describes the demo as seeded', () => {
  it('the number of checkouts, of settled ones and of unmatched transfers', () => {
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    expect(count(/The demo also seeds (\w+) checkouts/)).toBe(total);
    expect(count(/and (\w+) settled\)/)).toBe(byStatus.get('settled') ?? 0);
    expect(count(/and (\w+) transfer to an address no checkout owns/)).toBe(unmatched);
    for (const status of ['open', 'underpaid', 'processing', 'canceled'])
      expect(byStatus.get(status), status).toBeGreaterThan(0);
    expect(byStatus.get('needs_review')).toBe(1);
  });
});
