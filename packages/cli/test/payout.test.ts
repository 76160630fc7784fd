import { randomBytes } from 'node:crypto';
import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, cli, json, text } from './admin-helpers.js';
import { lines, type Result } from './helpers.js';
import { startCheckoutServer, type RealServer } from './test-server.js';
import { stuckHotWalletPayout } from '../../server/test/http-helpers/hot-wallet-payout.js';

const TOKEN = randomBytes(32).toString('hex');
const ctx = { operator: 'setup' };
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

interface PayoutDoc {
  id: string;
  status: string;
  reason: string | null;
  amount: string;
  networkFee: string;
  total: string;
  txHash: string | null;
  merchantId?: string;
  timeline: { status: string; reason: string | null; by: string }[];
}
interface DestinationDoc {
  id: string;
  status: string;
  activeFrom: string;
}

// json() reads every number as its exact text: amounts come back as "12.5".

/** `hostpay payout …` (merchant, through the client) and the operators' side (admin API) against a real sandbox. */
describe('payout commands', () => {
  let server: RealServer;
  let merchantId: string;
  let walletId: string;
  let env: Record<string, string>;
  const merchant = (...args: string[]) => cli(args, env);
  const operator = (...args: string[]) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN });
  const failure = (r: Result, code: number): string => {
    expect([r.code, r.stdout], r.stderr).toEqual([code, '']);
    return r.stderr.trimEnd();
  };
  const wallet = async () => {
    const w = json<{ amount: string; freezeAmount: string }>(await operator('wallet', 'get', walletId, '--json'));
    return { amount: w.amount, frozen: w.freezeAmount };
  };

  beforeAll(async () => {
    server = await startCheckoutServer(`alice:${TOKEN}`);
    const { admin } = server.services;
    merchantId = (await admin.createMerchant('Payout Shop', ctx)).id;
    walletId = (await admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
    await admin.post({ walletId, kind: 'credit', amount: '100.5' }, ctx);
    const key = await admin.createApiKey(merchantId, { scopes: [...SCOPES] }, ctx);
    env = { HOSTPAY_BASE_URL: server.url, HOSTPAY_API_KEY: key.apiKey, HOSTPAY_API_SECRET: key.apiSecret };
  });
  afterAll(() => server.close());

  it('merchant update sets the payout settings; merchant get shows them; --json has them exact', async () => {
    const out = text(
      await operator(
        'merchant',
        'update',
        merchantId,
        '--payout-cooling-off-hours',
        '48',
        '--payout-auto-approve-limit',
        '2.5',
        '--payout-daily-limit',
        'usdt=50.25',
        '--payout-daily-limit',
        'BTC=0.1',
      ),
    );
    expect(out).toMatch(/payout cooling-off +48 h/);
    expect(out).toMatch(/payout auto-approve up to +2\.5/);
    expect(out).toMatch(/payout daily limit +50\.25 USDT, 0\.1 BTC/);
    const doc = json<Record<string, unknown>>(await operator('merchant', 'get', merchantId, '--json'));
    expect(doc).toMatchObject({
      payoutCoolingOffHours: '48',
      payoutAutoApproveLimit: '2.5',
      payoutDailyLimit: { USDT: '50.25', BTC: '0.1' },
    });
    const bad = await operator('merchant', 'update', merchantId, '--payout-daily-limit', 'USDT');
    expect(failure(bad, 2)).toMatch(/ASSET=AMOUNT/);
    const hours = await operator('merchant', 'update', merchantId, '--payout-cooling-off-hours', '169');
    expect(failure(hours, 2)).toMatch(/0 to 168/);
    // Every payout waits for an operator from here on.
    text(await operator('merchant', 'update', merchantId, '--payout-auto-approve-limit', '0'));
  });

  it('destination add cools off for the merchant period; a payout to it is refused; the operator activates it', async () => {
    const d = json<DestinationDoc>(
      await merchant('payout', 'destination', 'add', 'TRON', TRON_ADDRESS, '--label', 'treasury', '--json'),
    );
    expect(d.status).toBe('cooling_off');
    const listed = cells(text(await merchant('payout', 'destination', 'list')));
    expect(listed[0]).toEqual(['ID', 'CHAIN', 'ADDRESS', 'LABEL', 'STATUS', 'ACTIVE FROM']);
    expect(listed[1]).toEqual([d.id, 'TRON', TRON_ADDRESS, 'treasury', 'cooling_off', d.activeFrom]);

    const refused = await merchant('payout', 'request', '1', '--wallet', walletId, '--destination', d.id);
    expect(failure(refused, 1)).toMatch(/^hostpay: DESTINATION_NOT_ACTIVE: .+ \(request id .+\)$/);
    expect(await wallet()).toEqual({ amount: '100.5', frozen: '0' });

    expect(lines(text(await operator('payout', 'destination', 'activate', d.id)))[0]).toBe(
      `activated destination ${d.id}`,
    );
    const bad = await merchant('payout', 'destination', 'add', 'TRON', '0xnope');
    expect(failure(bad, 1)).toMatch(/^hostpay: INVALID_ADDRESS: /);
  });

  it('request → queue → approve → sent → complete: the total is frozen, then debited; every step is in the timeline', async () => {
    const r = text(
      await merchant(
        'payout',
        'request',
        '12.5',
        '--wallet',
        walletId,
        '--destination',
        TRON_ADDRESS,
        '--reference',
        'inv-9',
      ),
    );
    const id = /^requested payout (po_\w+): pending_approval, ([\d.]+) USDT frozen$/.exec(lines(r)[0] ?? '');
    expect(id, r).not.toBeNull();
    const payoutId = id?.[1] as string;
    expect(r).toMatch(/reference +inv-9/);
    expect((await wallet()).frozen).toBe(id?.[2]);

    const queue = cells(text(await operator('payout', 'review', 'list')));
    expect(queue[0]).toEqual(['MERCHANT', 'ID', 'STATUS', 'AMOUNT', 'FEE', 'ASSET', 'CHAIN', 'DESTINATION', 'CREATED']);
    expect(queue.slice(1).map((row) => row.slice(0, 4))).toEqual([[merchantId, payoutId, 'pending_approval', '12.5']]);

    const page = json<{ items: PayoutDoc[]; nextCursor: null }>(
      await operator('payout', 'review', 'list', '--merchant', merchantId, '--chain', 'TRON', '--json'),
    );
    expect(page.items.map((p) => [p.id, p.merchantId])).toEqual([[payoutId, merchantId]]);

    expect(text(await operator('payout', 'approve', payoutId))).toBe(
      `approved payout ${payoutId}: 12.5 USDT to ${TRON_ADDRESS}\n`,
    );
    // The manual sender's queue: the approved payout, as CSV with its header line.
    const csv = lines(text(await operator('payout', 'export')));
    expect(csv[0]).toBe(
      'id,merchantId,chain,network,asset,contract,amount,networkFee,destination,reference,refundOf,createdAt',
    );
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 3))).toEqual([[payoutId, merchantId, 'TRON']]);
    const rows = json<{ count: string; items: { id: string; amount: string }[] }>(
      await operator('payout', 'export', '--format', 'json', '--json'),
    );
    expect(rows).toMatchObject({ count: '1', items: [{ id: payoutId, amount: '12.5' }] });

    expect(text(await operator('payout', 'sent', payoutId, '--tx-hash', `0x${'ab'.repeat(32)}`))).toBe(
      `payout ${payoutId} is sent: transaction 0x${'ab'.repeat(32)}\n`,
    );
    const total = (await wallet()).frozen;
    expect(text(await operator('payout', 'complete', payoutId))).toBe(
      `completed payout ${payoutId}: ${total} USDT debited\n`,
    );
    const done = json<PayoutDoc>(await merchant('payout', 'get', payoutId, '--json'));
    expect(done.status).toBe('completed');
    expect(done.timeline.map((t) => `${t.status}:${t.by}`)).toEqual([
      'pending_approval:merchant',
      'approved:operator',
      'sent:operator',
      'completed:operator',
    ]);
    const w = await wallet();
    expect(w.frozen).toBe('0');
    expect(Number(w.amount) + Number(done.total)).toBeCloseTo(100.5, 12);
    // A payout moves once: completing it again is a state conflict (exit 1, the code on stderr).
    expect(failure(await operator('payout', 'complete', payoutId), 1)).toMatch(/^hostpay: PAYOUT_STATE_CONFLICT: /);
    // The text view names every step.
    const shown = text(await operator('payout', 'review', 'get', payoutId));
    expect(shown).toMatch(new RegExp(`merchant +${merchantId}`));
    expect(shown).toMatch(/ completed by operator$/m);
  });

  it('reject and fail need a reason and unfreeze; the merchant cancels its own; list filters by status', async () => {
    const request = async () =>
      json<PayoutDoc>(
        await merchant('payout', 'request', '1', '--wallet', walletId, '--destination', TRON_ADDRESS, '--json'),
      );
    const a = await request();
    expect(failure(await operator('payout', 'reject', a.id), 2)).toMatch(/--reason/);
    const rejected = json<PayoutDoc>(await operator('payout', 'reject', a.id, '--reason', 'unknown address', '--json'));
    expect([rejected.status, rejected.reason]).toEqual(['rejected', 'unknown address']);

    const b = await request();
    expect(text(await merchant('payout', 'cancel', b.id))).toBe(`canceled payout ${b.id}: ${b.total} USDT unfrozen\n`);

    const c = await request();
    await operator('payout', 'approve', c.id);
    await operator('payout', 'sent', c.id, '--tx-hash', `0x${'cd'.repeat(32)}`);
    const failed = json<PayoutDoc>(await operator('payout', 'fail', c.id, '--reason', 'dropped', '--json'));
    expect([failed.status, failed.reason]).toEqual(['failed', 'dropped']);
    expect((await wallet()).frozen).toBe('0');

    const canceled = json<{ items: PayoutDoc[] }>(await merchant('payout', 'list', '--status', 'canceled', '--json'));
    expect(canceled.items.map((p) => p.id)).toEqual([b.id]);
    expect(failure(await merchant('payout', 'list', '--status', 'gone'), 2)).toMatch(/--status must be one of/);
    const all = cells(text(await merchant('payout', 'list')));
    expect(all).toHaveLength(1 + 4);
  });

  it('simulate (sandbox) completes an approved payout; revoke a destination; exit codes of refusals', async () => {
    const p = json<PayoutDoc>(
      await merchant('payout', 'request', '2', '--wallet', walletId, '--destination', TRON_ADDRESS, '--json'),
    );
    expect(failure(await merchant('payout', 'simulate', p.id), 1)).toMatch(/^hostpay: PAYOUT_STATE_CONFLICT: /);
    await operator('payout', 'approve', p.id);
    const out = text(await merchant('payout', 'simulate', p.id, '--outcome', 'completed'));
    expect(lines(out)[0]).toBe(`payout ${p.id} is completed`);
    expect(failure(await merchant('payout', 'simulate', p.id, '--outcome', 'lost'), 2)).toMatch(/completed or failed/);

    const d = json<{ items: DestinationDoc[] }>(await merchant('payout', 'destination', 'list', '--json')).items[0];
    expect(lines(text(await merchant('payout', 'destination', 'revoke', d?.id as string)))[0]).toBe(
      `revoked destination ${d?.id}`,
    );
    const after = await merchant('payout', 'request', '1', '--wallet', walletId, '--destination', d?.id as string);
    expect(failure(after, 1)).toMatch(/^hostpay: DESTINATION_NOT_ACTIVE: payout destination dst_\w+ was revoked/);

    // A key without payouts:write (created without --scopes): refused, exit 4.
    const plain = await server.services.admin.createApiKey(merchantId, {}, ctx);
    const denied = await cli(['payout', 'request', '1', '--wallet', walletId, '--destination', TRON_ADDRESS], {
      ...env,
      HOSTPAY_API_KEY: plain.apiKey,
      HOSTPAY_API_SECRET: plain.apiSecret,
    });
    expect(failure(denied, 4)).toMatch(/^hostpay: SCOPE_MISSING: /);
  });

  it('checkout refund pays a settled checkout back to the payer; without a destination, and refund-link, print a link', async () => {
    const c = json<{ id: string }>(
      await merchant('checkout', 'create', '20', 'USDT', '--option', 'USDT/TRON', '--json'),
    );
    text(await merchant('checkout', 'pay', c.id));
    // A merchant-given refund address is one of its address book, active (the earlier one was revoked).
    const d = json<DestinationDoc>(await merchant('payout', 'destination', 'add', 'TRON', TRON_ADDRESS, '--json'));
    text(await operator('payout', 'destination', 'activate', d.id));
    const r = text(await merchant('checkout', 'refund', c.id, '3.5', '--destination', TRON_ADDRESS));
    expect(r).toMatch(new RegExp(`^refund payout po_\\w+: \\w+, 3\\.5 USDT to ${TRON_ADDRESS}\\n$`));
    const doc = json<PayoutDoc & { refundOf: string }>(
      await merchant('checkout', 'refund', c.id, '1', '--destination', TRON_ADDRESS, '--json'),
    );
    expect([doc.refundOf, doc.amount]).toEqual([c.id, '1']);
    expect(failure(await merchant('checkout', 'refund', c.id, '50', '--destination', TRON_ADDRESS), 1)).toMatch(
      /^hostpay: REFUND_TOO_LARGE: /,
    );
    const link = lines(text(await merchant('checkout', 'refund', c.id, '2')));
    expect(link[0]).toMatch(/^refund link for 2 USDT \(hand it to the payer only; works once, until .+\):$/);
    expect(link[1]?.startsWith(server.url)).toBe(true);
    const open = lines(text(await merchant('checkout', 'refund-link', c.id)));
    expect(open[0]).toMatch(/^refund link for whatever is still refundable in USDT when the payer submits \(hand it/);
    // Mailed to the payer: the checkout has no customerEmail, so one must be given.
    expect(failure(await merchant('checkout', 'refund-link', c.id, '--send-email'), 1)).toMatch(
      /^hostpay: CUSTOMER_EMAIL_MISSING: /,
    );
    const mailed = lines(
      text(await merchant('checkout', 'refund-link', c.id, '--send-email', '--customer-email', 'payer@example.com')),
    );
    expect(mailed[0]).toMatch(/^refund link for whatever is still refundable/);
    const mail = await server.services.store.db
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address'])
      .where('to_address', '=', 'payer@example.com')
      .execute();
    expect(mail).toEqual([{ kind: 'refund-link', to_address: 'payer@example.com' }]);
  });

  it('a hot-wallet payout stuck in flight: transactions (FORGOTTEN, the node answer), rebroadcast, cancel-by-replacement', async () => {
    const stuck = await stuckHotWalletPayout(server.services, { forgotten: true });
    try {
      const id = stuck.payoutId;
      const out = text(await operator('payout', 'transactions', id));
      expect(out).toMatch(/^state +FORGOTTEN$/m);
      expect(out).toMatch(/^node answer +Insufficient funds for gas/m);
      expect(out).toMatch(/^you can +rebroadcast, cancel-by-replacement$/m);
      expect(out).toContain(stuck.txHash);
      expect(text(await operator('chain', 'show-hot-wallet', 'ETH'))).toMatch(
        /^forgotten +1: the node refused them again \(hostpay payout transactions ID\)$/m,
      );
      expect(lines(text(await operator('payout', 'rebroadcast', id)))[0]).toMatch(
        new RegExp(`^the node refused transaction ${stuck.txHash} of payout ${id} again: Insufficient funds`),
      );
      expect(lines(text(await operator('payout', 'cancel-by-replacement', id)))).toEqual([
        `cancel by replacement of payout ${id} (nonce 0): asked for: the sender signs it at its next round`,
        `follow it with: hostpay payout transactions ${id}`,
      ]);
      const doc = json<{ cancel: { status: string; requestedBy: string }; actions: string[] }>(
        await operator('payout', 'transactions', id, '--json'),
      );
      expect(doc).toMatchObject({ cancel: { status: 'requested', requestedBy: 'alice' }, actions: ['rebroadcast'] });
      // Asked again: the same request, not a second one.
      text(await operator('payout', 'cancel-by-replacement', id));
      const audit = json<{ items: { action: string }[] }>(await operator('audit', 'list', '--object-id', id, '--json'));
      expect(audit.items.filter((e) => e.action === 'payout.cancel_by_replacement')).toHaveLength(1);
      expect(failure(await operator('payout', 'transactions', 'po_nobody'), 1)).toMatch(/^hostpay: NOT_FOUND: /);
    } finally {
      await stuck.anvil.stop();
    }
  });

  it('payout fee set/list: the estimate is frozen with the next payout; --json exact; audited; refusals', async () => {
    expect(text(await operator('payout', 'fee', 'list'))).toBe('no network fee estimates: every payout estimates 0\n');
    expect(text(await operator('payout', 'fee', 'set', 'tron', 'usdt', '1.25'))).toBe(
      'payouts of USDT on TRON now freeze a network fee of 1.25 USDT\n',
    );
    const table = cells(text(await operator('payout', 'fee', 'list')));
    expect(table[0]).toEqual(['CHAIN', 'ASSET', 'NETWORK FEE', 'UPDATED']);
    expect(table.slice(1).map((r) => r.slice(0, 3))).toEqual([['TRON', 'USDT', '1.25']]);
    const doc = json<{ items: { chain: string; asset: string; networkFee: string }[] }>(
      await operator('payout', 'fee', 'list', '--json'),
    );
    expect(doc.items).toEqual([expect.objectContaining({ chain: 'TRON', asset: 'USDT', networkFee: '1.25' })]);
    const audit = json<{ items: { action: string; operator: string }[] }>(
      await operator('audit', 'list', '--action', 'payout_network_fee.set', '--json'),
    );
    expect(audit.items.map((e) => [e.action, e.operator])).toEqual([['payout_network_fee.set', 'alice']]);

    // A payout requested now freezes amount + the estimate.
    const before = await wallet();
    const p = json<PayoutDoc>(
      await merchant('payout', 'request', '2', '--wallet', walletId, '--destination', TRON_ADDRESS, '--json'),
    );
    expect([p.amount, p.networkFee, p.total]).toEqual(['2', '1.25', '3.25']);
    expect(Number((await wallet()).frozen) - Number(before.frozen)).toBe(3.25);
    text(await merchant('payout', 'cancel', p.id));

    expect(failure(await operator('payout', 'fee', 'set', 'TRON', 'USDT', 'lots'), 1)).toMatch(/^hostpay: INVALID_/);
    expect(failure(await operator('payout', 'fee', 'set', 'NOPE', 'USDT', '1'), 1)).toMatch(/^hostpay: NOT_FOUND: /);
    expect(failure(await operator('payout', 'fee', 'set', 'TRON', 'USDT'), 2)).toMatch(/missing required argument/);
    text(await operator('payout', 'fee', 'set', 'TRON', 'USDT', '0'));
  });
});
