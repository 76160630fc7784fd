import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, cli, json, text } from './admin-helpers.js';
import { lines, tempDir, type Result } from './helpers.js';
import { startCheckoutServer, type RealServer } from './test-server.js';

const TOKEN = randomBytes(32).toString('hex');

interface CheckoutDoc {
  id: string;
  status: string;
  reason: string | null;
  url: string;
  amount: string;
  metadata: Record<string, string>;
  paymentOptions: { asset: string; chain: string; address: string; amountDue: string; confirmationsRequired: string }[];
  payments: { amount: string }[];
  timeline: { status: string }[];
}

// json() reads every number as its exact text: counts come back as "1", amounts as "99.95".

/** `hostpay checkout …` (merchant) and `hostpay transfer …` / review (operator) against a real sandbox. */
describe('checkout and transfer commands', () => {
  let server: RealServer;
  const files = tempDir();
  const merchantEnv = () => ({
    HOSTPAY_BASE_URL: server.url,
    HOSTPAY_API_KEY: server.demo.apiKey,
    HOSTPAY_API_SECRET: server.demo.apiSecret,
  });
  const merchant = (...args: string[]) => cli(args, merchantEnv());
  const operator = (...args: string[]) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN });
  const failure = (r: Result, code: number): string => {
    expect([r.code, r.stdout], r.stderr).toEqual([code, '']);
    return r.stderr.trimEnd();
  };
  /** A checkout paid in USDT on TRON only, as JSON. */
  const create = async (amount = '100', ...extra: string[]) =>
    json<CheckoutDoc>(
      await merchant('checkout', 'create', amount, 'USDT', '--option', 'USDT/TRON', '--json', ...extra),
    );

  beforeAll(async () => {
    server = await startCheckoutServer(`alice:${TOKEN}`);
  });
  afterAll(async () => {
    await server.close();
    files.remove();
  });

  it('create prints the id and the page URL first, then what to pay; --open hands the URL to the browser', async () => {
    const opened = join(files.dir, 'opened.txt');
    const browser = join(files.dir, 'browser.sh');
    // Written under another name, then renamed: the test never reads a half-written file.
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}.part' && mv '${opened}.part' '${opened}'\n`);
    chmodSync(browser, 0o755);
    const r = await cli(
      [
        'checkout',
        'create',
        '99.95',
        'USDT',
        '--order-id',
        'cli-1',
        '--description',
        'Two books',
        '--option',
        'USDT/TRON',
        '--option',
        'USDT/ETH',
        '--metadata',
        'cart=3',
        '--metadata',
        'note=a=b',
        '--expires-in',
        '600',
        '--success-url',
        'http://127.0.0.1:9/ok',
        '--open',
      ],
      { ...merchantEnv(), BROWSER: browser },
    );
    const out = lines(text(r));
    expect(r.stderr).toBe('');
    const id = /^id +(chk_\w+)$/.exec(out[0] ?? '')?.[1];
    expect(id).toBeDefined();
    expect(out[1]).toMatch(new RegExp(`^url +${server.url}/pay/${id}$`));
    expect(out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^status +open$/),
        expect.stringMatching(/^amount +99\.95 USDT$/),
        expect.stringMatching(/^metadata note +a=b$/),
      ]),
    );
    expect(out.find((l) => l.startsWith('ASSET'))).toMatch(/^ASSET +CHAIN +AMOUNT DUE +RECEIVED +NET +ADDRESS$/);
    expect(out.filter((l) => /^USDT +(TRON|ETH) +99\.95 +0 /.test(l))).toHaveLength(2);
    for (let i = 0; i < 250 && !existsSync(opened); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(opened, 'utf8')).toBe(out[1]?.replace(/^url +/, ''));

    const doc = json<CheckoutDoc>(await merchant('checkout', 'get', id as string, '--json'));
    expect(doc).toMatchObject({ id, amount: '99.95', metadata: { cart: '3', note: 'a=b' } });
  });

  it('--open where no browser can be started: the URL is printed, a notice says so, exit 0', async () => {
    const r = await cli(['checkout', 'create', '50', 'USDT', '--option', 'USDT/TRON', '--open'], {
      ...merchantEnv(),
      BROWSER: join(files.dir, 'no-such-browser'),
    });
    expect(r.code, r.stderr).toBe(0);
    const url = lines(r.stdout)[1]?.replace(/^url +/, '');
    expect(lines(r.stderr)).toEqual([`hostpay: could not open a browser on this machine: open ${url} yourself`]);
  });

  it('pay (sandbox): a part, then the rest: underpaid, then settled', async () => {
    const c = await create('100');
    expect(c.paymentOptions[0]).toMatchObject({ amountDue: '100', confirmationsRequired: '1' });
    expect(lines(text(await merchant('checkout', 'pay', c.id, '--amount', '40.5')))[0]).toBe(
      `paid 40.5 USDT on TRON: checkout ${c.id} is underpaid (paid_partial)`,
    );
    const settled = json<CheckoutDoc>(await merchant('checkout', 'pay', c.id, '--asset', 'usdt', '--json'));
    expect(settled.status).toBe('settled');
    expect(settled.payments.map((p) => p.amount)).toEqual(['40.5', '59.5']);
    expect(text(await merchant('checkout', 'get', c.id))).toContain(
      'timeline: open → underpaid (paid_partial) → processing → settled',
    );
    expect(failure(await merchant('checkout', 'pay', c.id, '--chain', 'BTC'), 2)).toBe(
      `hostpay: checkout ${c.id} has no payment option on BTC: see hostpay checkout get ${c.id}`,
    );
  });

  it('list: newest first, filters, pages; --json is {items, nextCursor}', async () => {
    const orderId = `cli-list-${Date.now()}`;
    const ids = [(await create('10', '--order-id', orderId)).id, (await create('11', '--order-id', orderId)).id];
    const table = cells(text(await merchant('checkout', 'list', '--order-id', orderId)));
    expect(table[0]).toEqual(['ID', 'STATUS', 'AMOUNT', 'CURRENCY', 'ORDER', 'CREATED']);
    expect(table.slice(1).map((r) => r.slice(0, 4))).toEqual([
      [ids[1], 'open', '11', 'USDT'],
      [ids[0], 'open', '10', 'USDT'],
    ]);
    const first = json<{ items: { id: string; amount: string }[]; nextCursor: string }>(
      await merchant('checkout', 'list', '--order-id', orderId, '--limit', '1', '--json'),
    );
    expect(first.items.map((c) => c.id)).toEqual([ids[1]]);
    expect(text(await merchant('checkout', 'list', '--order-id', orderId, '--limit', '1'))).toContain(
      `more: repeat with --cursor ${first.nextCursor}`,
    );
    const second = json<{ items: { id: string }[]; nextCursor: null }>(
      await merchant('checkout', 'list', '--order-id', orderId, '--limit', '1', '--cursor', first.nextCursor, '--json'),
    );
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect(text(await merchant('checkout', 'list', '--order-id', orderId, '--status', 'settled'))).toBe(
      'no checkouts: create one with hostpay checkout create 100 EUR\n',
    );
    expect(failure(await merchant('checkout', 'list', '--status', 'paid'), 2)).toMatch(
      /^hostpay: --status must be one of open, underpaid/,
    );
  });

  it('cancel an open checkout; again is CHECKOUT_STATE_CONFLICT (exit 1, request id)', async () => {
    const c = await create('20');
    expect(text(await merchant('checkout', 'cancel', c.id))).toBe(`canceled checkout ${c.id}\n`);
    expect(failure(await merchant('checkout', 'cancel', c.id), 1)).toMatch(
      /^hostpay: CHECKOUT_STATE_CONFLICT: .+ \(request id req_\w+\)$/,
    );
    expect(failure(await merchant('checkout', 'get', 'chk_nope'), 1)).toMatch(/^hostpay: NOT_FOUND: /);
  });

  it('bad flags are usage errors (exit 2) before anything is sent', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['checkout', 'create', '1', 'EUR', '--option', 'USDT'],
        /--option <asset\/chain>' argument 'USDT' is invalid. must be ASSET\/CHAIN/,
      ],
      [['checkout', 'create', '1', 'EUR', '--metadata', 'novalue'], /must be KEY=VALUE/],
      [['checkout', 'create', '1', 'EUR', '--metadata', 'a=1', '--metadata', 'a=2'], /key "a" given twice/],
      [['checkout', 'create', '1', 'EUR', '--expires-in', '60'], /must be a whole number from 300 to 86400/],
      [['checkout', 'pay', 'chk_x', '--confirmations', '-1'], /--confirmations <n>' argument '-1' is invalid/],
      [['merchant', 'update', 'mer_x'], /merchant update needs at least one of --name, --underpayment-tolerance/],
    ];
    for (const [args, line] of cases) expect(failure(await merchant(...args), 2), args.join(' ')).toMatch(line);
  });

  it('operator: transfer report to an unknown address is unmatched; a repeat is already known; list --unmatched; attach pays a checkout', async () => {
    const tx = `0x${randomBytes(8).toString('hex')}`;
    const report = [
      'transfer',
      'report',
      '--chain',
      'TRON',
      '--tx',
      tx,
      '--index',
      '0',
      '--to',
      'TNowhere',
      '--asset',
      'USDT',
      '--amount',
      '30',
      '--confirmations',
      '1',
    ];
    const first = text(await operator(...report));
    const transferId = /transfer (\S+) of/.exec(first)?.[1] as string;
    expect(first).toBe(
      `recorded: transfer ${transferId} of 30 USDT on TRON (1 confirmations) matches no checkout; exception: unmatched\n`,
    );
    expect(text(await operator(...report))).toMatch(/^already known: /);
    const unmatched = json<{ items: { id: string; amount: string; index: string }[] }>(
      await operator('transfer', 'list', '--unmatched', '--json'),
    );
    expect(unmatched.items).toContainEqual(expect.objectContaining({ id: transferId, amount: '30', index: '0' }));
    expect(cells(text(await operator('transfer', 'list', '--unmatched')))[0]).toEqual([
      'ID',
      'CHAIN',
      'ASSET',
      'AMOUNT',
      'CONF',
      'TO',
      'CHECKOUT',
      'EXCEPTION',
    ]);

    const c = await create('30');
    expect(text(await operator('transfer', 'attach', transferId, '--checkout', c.id))).toBe(
      `attached: transfer ${transferId} of 30 USDT on TRON (1 confirmations) → checkout ${c.id} now settled\n`,
    );
    expect(
      json<{ items: unknown[] }>(await operator('transfer', 'list', '--checkout', c.id, '--json')).items,
    ).toHaveLength(1);
  });

  it('operator: a payment to a checkout address, then its retraction', async () => {
    const c = await create('100');
    const address = c.paymentOptions[0]?.address as string;
    const tx = `0x${randomBytes(8).toString('hex')}`;
    const paid = json<{ transfer: { id: string }; checkout: CheckoutDoc }>(
      await operator(
        'transfer',
        'report',
        '--chain',
        'TRON',
        '--tx',
        tx,
        '--index',
        '1',
        '--to',
        address,
        '--asset',
        'USDT',
        '--amount',
        '100',
        '--confirmations',
        '0',
        '--block-time',
        new Date().toISOString(),
        '--json',
      ),
    );
    expect(paid.checkout).toMatchObject({ id: c.id, status: 'processing' });
    expect(text(await operator('transfer', 'retract', paid.transfer.id))).toMatch(
      new RegExp(
        `^retracted: transfer \\S+ of 100 USDT on TRON \\(0 confirmations\\) → checkout ${c.id} now open \\(payment_retracted\\)`,
      ),
    );
  });

  it('operator: review list shows needs_review; settle and reject resolve it', async () => {
    const late = async () => {
      const c = await create('25');
      await merchant('checkout', 'cancel', c.id);
      const tx = `0x${randomBytes(8).toString('hex')}`;
      await operator(
        'transfer',
        'report',
        '--chain',
        'TRON',
        '--tx',
        tx,
        '--index',
        '0',
        '--to',
        c.paymentOptions[0]?.address as string,
        '--asset',
        'USDT',
        '--amount',
        '25',
        '--confirmations',
        '1',
      );
      return c.id;
    };
    const [a, b] = [await late(), await late()];
    const review = cells(text(await operator('checkout', 'review', 'list')));
    expect(review.slice(1).map((r) => r.slice(0, 2))).toEqual(
      expect.arrayContaining([
        [a, 'needs_review (paid_late)'],
        [b, 'needs_review (paid_late)'],
      ]),
    );
    expect(review.slice(1).every((r) => r[1]?.startsWith('needs_review'))).toBe(true);
    expect(
      json<{ items: unknown[] }>(await operator('checkout', 'review', 'list', '--all', '--json')).items.length,
    ).toBeGreaterThan(review.length - 1);
    expect(text(await operator('checkout', 'review', 'get', a))).toMatch(/^status +needs_review \(paid_late\)$/m);

    expect(text(await operator('checkout', 'settle', a))).toBe(
      `settled checkout ${a} (paid_late): the merchant's wallet is credited\n`,
    );
    expect(text(await operator('checkout', 'reject', b))).toBe(
      `rejected checkout ${b}: invalid (rejected_by_operator), nothing credited\n`,
    );
    expect(failure(await operator('checkout', 'reject', b), 1)).toMatch(/^hostpay: CHECKOUT_STATE_CONFLICT: /);
    expect(text(await operator('checkout', 'review', 'list', '--merchant', server.demo.merchantId))).toBe(
      'no checkouts need review\n',
    );
  });

  it('operator: merchant update --underpayment-tolerance, shown by merchant get; out of range is INVALID_BODY', async () => {
    const id = server.demo.merchantId;
    expect(text(await operator('merchant', 'update', id, '--underpayment-tolerance', '0.50'))).toMatch(
      new RegExp(`^updated merchant ${id} \\(.+\\): underpayment tolerance 0\\.5 %, rate spread the default\\n$`),
    );
    expect(text(await operator('merchant', 'get', id))).toMatch(/underpayment tolerance +0\.5 %/);
    expect(
      json<{ underpaymentTolerancePercent: string }>(await operator('merchant', 'get', id, '--json'))
        .underpaymentTolerancePercent,
    ).toBe('0.5');
    expect(failure(await operator('merchant', 'update', id, '--underpayment-tolerance', '9'), 1)).toMatch(
      /^hostpay: INVALID_BODY: underpaymentTolerancePercent must be a decimal string from 0 to 5/,
    );
    // 99.6 of 100 now completes a checkout created afterwards.
    const c = await create('100');
    expect(json<CheckoutDoc>(await merchant('checkout', 'pay', c.id, '--amount', '99.6', '--json')).status).toBe(
      'settled',
    );
    await operator('merchant', 'update', id, '--underpayment-tolerance', '0');
  });

  it('operator: rate spread set|show and merchant update --rate-spread P|default; a converted option carries it', async () => {
    const id = server.demo.merchantId;
    expect(text(await operator('rate', 'spread', 'show'))).toBe('default rate spread: 0 % (never set)\n');
    expect(text(await operator('rate', 'spread', 'set', '1.50'))).toBe('default rate spread set: 1.5 %\n');
    expect(json<{ percent: string }>(await operator('rate', 'spread', 'show', '--json')).percent).toBe('1.5');
    expect(failure(await operator('rate', 'spread', 'set', '12'), 1)).toMatch(
      /^hostpay: INVALID_BODY: percent must be a decimal string from 0 to 10/,
    );
    expect(text(await operator('merchant', 'update', id, '--rate-spread', '0.25'))).toMatch(/rate spread 0\.25 %\n$/);
    expect(text(await operator('merchant', 'get', id))).toMatch(/rate spread +0\.25 %/);
    // EUR → USDT at the demo's 1.0842, plus 0.25 %.
    const c = json<{ paymentOptions: { rate: string; rateSpreadPercent: string }[] }>(
      await merchant('checkout', 'create', '100', 'EUR', '--option', 'USDT/TRON', '--json'),
    );
    expect(c.paymentOptions[0]).toMatchObject({ rate: '1.0869105', rateSpreadPercent: '0.25' });
    expect(text(await operator('merchant', 'update', id, '--rate-spread', 'default'))).toMatch(
      /rate spread the default\n$/,
    );
    await operator('rate', 'spread', 'set', '0');
  });
});

describe('transfer commands on the local store', () => {
  it('report (unmatched), list --unmatched, retract', async () => {
    const data = tempDir();
    try {
      const local = (...args: string[]) => cli([...args, '--data-dir', data.dir]);
      const out = json<{ transfer: { id: string; exception: string } }>(
        await local(
          'transfer',
          'report',
          '--chain',
          'ETH',
          '--tx',
          '0xabc',
          '--index',
          '2',
          '--to',
          '0x0000000000000000000000000000000000000001',
          '--asset',
          'ETH',
          '--amount',
          '0.000000000000000001',
          '--confirmations',
          '3',
          '--json',
        ),
      );
      expect(out.transfer.exception).toBe('unmatched');
      const table = cells(text(await local('transfer', 'list', '--unmatched')));
      expect(table[1]?.slice(0, 5)).toEqual([out.transfer.id, 'ETH', 'ETH', '0.000000000000000001', '3']);
      expect(text(await local('transfer', 'retract', out.transfer.id))).toMatch(
        /^retracted: transfer \S+ of 0\.000000000000000001 ETH on ETH \(3 confirmations\) matches no checkout/,
      );
      expect(text(await local('checkout', 'review', 'list'))).toBe('no checkouts need review\n');
    } finally {
      data.remove();
    }
  });
});
