import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, json, text } from './admin-helpers.js';
import { startCheckoutServer, type RealServer } from './test-server.js';

const TOKEN = randomBytes(32).toString('hex');
const DAY = 86_400_000;

interface Doc {
  days: {
    chain: string;
    seen: { count: number };
    differences: { reason: string; txHash: string | null; amount: string; counted: boolean }[];
  }[];
}

/** `hostpay report KIND --operator` (every merchant's file) and `hostpay report reconciliation`, through the admin API. */
describe('operator report commands', () => {
  let server: RealServer;
  let from: string;
  let to: string;
  const operator = (...args: string[]) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN });

  beforeAll(async () => {
    server = await startCheckoutServer(`alice:${TOKEN}`);
    from = new Date(Date.now() - DAY).toISOString();
    to = new Date(Date.now() + DAY).toISOString();
    await server.services.checkouts.create(server.demo.merchantId, {
      amount: '10',
      currency: 'EUR',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });
  });
  afterAll(() => server.close());

  it('report reconciliation lists a transfer an operator reported by hand, as JSON and as a table', async () => {
    const tx = `0x${randomBytes(8).toString('hex')}`;
    text(
      await operator(
        ...['transfer', 'report', '--chain', 'TRON', '--tx', tx, '--index', '0', '--to', 'TNowhere'],
        ...['--asset', 'USDT', '--amount', '30.25', '--confirmations', '1'],
      ),
    );
    const doc = json<Doc>(await operator('report', 'reconciliation', '--from', from, '--to', to, '--json'));
    const tron = doc.days.find((d) => d.chain === 'TRON')!;
    expect(tron.differences).toContainEqual(
      expect.objectContaining({ reason: 'reported_by_hand', txHash: tx, amount: '30.25', counted: false }),
    );
    // Counts stay numbers in the JSON document.
    expect(
      typeof (
        JSON.parse((await operator('report', 'reconciliation', '--from', from, '--to', to, '--json')).stdout) as Doc
      ).days[0]!.seen.count,
    ).toBe('number');
    const table = text(await operator('report', 'reconciliation', '--from', from, '--to', to));
    expect(table).toMatch(/^CHAIN\s+DAY\s+SEEN\s+CREDITED\s+PAYOUTS COMPLETED\s+DIFFERENCES/);
    expect(table).toContain('reported_by_hand');
    expect(table).toContain(tx);
  });

  it('report KIND --operator writes every merchant’s rows with a last merchantId column; --merchant narrows', async () => {
    const csv = text(await operator('report', 'checkouts', '--operator', '--from', from, '--to', to));
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    expect(header!.split(',').at(-1)).toBe('merchantId');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.split(',').at(-1)).toBe(server.demo.merchantId);
    const ndjson = text(
      await operator(
        ...['report', 'checkouts', '--operator', '--merchant', server.demo.merchantId],
        ...['--from', from, '--to', to, '--format', 'ndjson'],
      ),
    );
    expect(ndjson.trim().split('\n').length).toBe(rows.length);
  });

  it('refusals are the server’s errors, with nothing on stdout', async () => {
    const unknown = await operator(
      'report',
      'ledger',
      '--operator',
      '--merchant',
      'mer_nobody',
      '--from',
      from,
      '--to',
      to,
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('NOT_FOUND');
    const backwards = await operator('report', 'reconciliation', '--from', to, '--to', from);
    expect(backwards.code).not.toBe(0);
    expect(backwards.stderr).toContain('INVALID_QUERY');
  });
});
