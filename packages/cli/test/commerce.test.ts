import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, cli, json, text } from './admin-helpers.js';
import { lines, tempDir, type Result } from './helpers.js';
import { startCheckoutServer, type RealServer } from './test-server.js';

const TOKEN = randomBytes(32).toString('hex');

interface LinkDoc {
  id: string;
  url: string;
  status: string;
  active: boolean;
  amount: string | null;
  maxUses: string | null;
  description: string | null;
  lineItems: { name: string; quantity: string; unitAmount: string }[] | null;
}
interface InvoiceDoc {
  id: string;
  number: string | null;
  status: string;
  url: string | null;
  total: string;
  subtotal: string;
  tax: string;
  amountDue: string;
  memo: string | null;
  sentAt: string | null;
  customer: { name: string | null; email: string | null };
  lineItems: { description: string; quantity: string; unitAmount: string; taxPercent: string | null; amount: string }[];
}

// json() reads every number as its exact text: amounts come back as "5.1".

/** `hostpay link …` and `hostpay invoice …` (merchant, through the client) against a real sandbox on SQLite. */
describe('link and invoice commands', () => {
  let server: RealServer;
  let env: Record<string, string>;
  let dir: ReturnType<typeof tempDir>;
  const merchant = (...args: string[]) => cli(args, env);
  const failure = (r: Result, code: number): string => {
    expect([r.code, r.stdout], r.stderr).toEqual([code, '']);
    return r.stderr.trimEnd();
  };

  beforeAll(async () => {
    server = await startCheckoutServer(`alice:${TOKEN}`);
    dir = tempDir();
    // The operator's `key create` without --scopes: the key must be able to sell with links and invoices.
    const key = json<{ apiKey: string; apiSecret: string; scopes: string[] }>(
      await cli(['key', 'create', '--merchant', server.demo.merchantId, '--json'], {
        HOSTPAY_ADMIN_URL: server.url,
        HOSTPAY_ADMIN_TOKEN: TOKEN,
      }),
    );
    expect(key.scopes).toEqual(
      expect.arrayContaining(['links:read', 'links:write', 'invoices:read', 'invoices:write']),
    );
    env = { HOSTPAY_BASE_URL: server.url, HOSTPAY_API_KEY: key.apiKey, HOSTPAY_API_SECRET: key.apiSecret };
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('link create with --item lines, list as a table, get/show, update, deactivate, activate', async () => {
    const created = json<LinkDoc>(
      await merchant(
        'link',
        'create',
        'Coffee',
        'EUR',
        '--item',
        'Espresso:2:2.55',
        '--item',
        'Cake:1:3.1',
        '--collect-email',
        'optional',
        '--idempotency-key',
        'cli-link-1',
        '--json',
      ),
    );
    expect(created).toMatchObject({
      status: 'active',
      amount: '8.2',
      lineItems: [
        { name: 'Espresso', quantity: '2', unitAmount: '2.55' },
        { name: 'Cake', quantity: '1', unitAmount: '3.1' },
      ],
    });
    // The same key again: the same link, not a second one.
    const again = json<LinkDoc>(
      await merchant(
        'link',
        'create',
        'Coffee',
        'EUR',
        '--item',
        'Espresso:2:2.55',
        '--item',
        'Cake:1:3.1',
        '--collect-email',
        'optional',
        '--idempotency-key',
        'cli-link-1',
        '--json',
      ),
    );
    expect(again.id).toBe(created.id);

    const human = text(await merchant('link', 'create', 'Tips', 'USDT', '--min-amount', '1', '--max-amount', '500'));
    const tipsId = /^created payment link (plink_\w+): (\S+)$/m.exec(human)?.[1];
    expect(tipsId).toBeDefined();
    expect(human).toMatch(/price +the payer types it: 1 to 500 USDT/);

    const table = cells(text(await merchant('link', 'list')));
    expect(table[0]).toEqual(['ID', 'STATUS', 'PRICE', 'CURRENCY', 'USES', 'NAME', 'CREATED']);
    expect(table.slice(1).map((r) => r.slice(0, 6))).toEqual([
      [tipsId, 'active', 'payer', 'USDT', '0', 'Tips'],
      [created.id, 'active', '8.2', 'EUR', '0', 'Coffee'],
    ]);
    const firstPage = json<{ items: LinkDoc[]; nextCursor: string | null }>(
      await merchant('link', 'list', '--limit', '1', '--json'),
    );
    expect(firstPage.items.map((l) => l.id)).toEqual([tipsId]);
    const paged = text(await merchant('link', 'list', '--limit', '1'));
    expect(paged).toContain(`more: repeat with --cursor ${firstPage.nextCursor}`);

    const shown = text(await merchant('link', 'show', created.id));
    expect(shown).toMatch(new RegExp(`^url +${created.url.replace(/[.?]/g, '\\$&')}$`, 'm'));
    expect(shown).toMatch(/^line +2 × Espresso at 2\.55 EUR$/m);

    const updated = json<LinkDoc>(
      await merchant('link', 'update', created.id, '--max-uses', '3', '--description', 'Hot drinks', '--json'),
    );
    expect(updated).toMatchObject({ maxUses: '3', description: 'Hot drinks', amount: '8.2' });
    const cleared = json<LinkDoc>(
      await merchant('link', 'update', created.id, '--max-uses', 'none', '--description', '', '--json'),
    );
    expect(cleared).toMatchObject({ maxUses: null, description: null });
    expect(failure(await merchant('link', 'update', created.id), 2)).toMatch(/needs at least one of --name/);

    expect(lines(text(await merchant('link', 'deactivate', created.id)))).toEqual([
      `payment link ${created.id} is inactive`,
    ]);
    expect((await fetch(created.url)).status).toBe(410);
    const inactive = json<{ items: LinkDoc[] }>(await merchant('link', 'list', '--inactive', '--json'));
    expect(inactive.items.map((l) => l.id)).toEqual([created.id]);
    expect(json<LinkDoc>(await merchant('link', 'activate', created.id, '--json')).status).toBe('active');
    expect(text(await merchant('link', 'checkouts', created.id))).toBe(
      `payment link ${created.id} has made no checkout yet\n`,
    );
  });

  it('link errors: a price that differs from its lines, a malformed --item, an unknown link', async () => {
    const mismatch = await merchant('link', 'create', 'Bad', 'EUR', '--amount', '9', '--item', 'One:1:8');
    expect(failure(mismatch, 1)).toMatch(/^hostpay: INVALID_AMOUNT: .+ \(request id .+\)$/);
    expect(failure(await merchant('link', 'create', 'Bad', 'EUR', '--item', 'One:1.5:8'), 2)).toMatch(/whole number/);
    expect(failure(await merchant('link', 'create', 'Bad', 'EUR', '--item', 'One:8'), 2)).toMatch(
      /NAME:QTY:UNIT_PRICE/,
    );
    expect(failure(await merchant('link', 'get', 'plink_nope'), 1)).toMatch(/^hostpay: NOT_FOUND: /);
  });

  it('link create --items-file: the lines read exactly, a whole quantity as a number; a file that is not a list is a usage error', async () => {
    const file = join(dir.dir, 'link-items.json');
    writeFileSync(file, '[{"name": "Box: large", "quantity": 3, "unitAmount": 1.25}]');
    const l = json<LinkDoc>(await merchant('link', 'create', 'Boxes', 'EUR', '--items-file', file, '--json'));
    expect(l).toMatchObject({ amount: '3.75', lineItems: [{ name: 'Box: large', quantity: '3', unitAmount: '1.25' }] });
    text(await merchant('link', 'deactivate', l.id));
    writeFileSync(file, '{"name": "not a list"}');
    expect(failure(await merchant('link', 'create', 'Boxes', 'EUR', '--items-file', file), 2)).toMatch(
      /must be a JSON array/,
    );
  });

  it('invoice create (--items-file and --item) → update → finalize → send → pdf → void', async () => {
    const itemsFile = join(dir.dir, 'items.json');
    writeFileSync(itemsFile, '[{"description": "Consulting", "quantity": 1.5, "unitAmount": 19.99, "taxPercent": 20}]');
    const draft = json<InvoiceDoc>(
      await merchant(
        'invoice',
        'create',
        'EUR',
        '--customer-name',
        'Ada',
        '--customer-email',
        'ada@example.com',
        '--items-file',
        itemsFile,
        '--item',
        'Travel:1:100.1:7.5',
        '--memo',
        'Thanks',
        '--json',
      ),
    );
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      customer: { name: 'Ada', email: 'ada@example.com' },
      lineItems: [
        { description: 'Consulting', quantity: '1.5', unitAmount: '19.99', taxPercent: '20', amount: '29.99' },
        { description: 'Travel', quantity: '1', unitAmount: '100.1', taxPercent: '7.5', amount: '100.1' },
      ],
      subtotal: '130.09',
      tax: '13.51',
      total: '143.6',
    });
    const pdfOfDraft = await merchant('invoice', 'pdf', draft.id, '--output', join(dir.dir, 'draft.pdf'));
    expect(failure(pdfOfDraft, 1)).toMatch(/^hostpay: INVOICE_STATE_CONFLICT: /);

    const edited = json<InvoiceDoc>(
      await merchant('invoice', 'update', draft.id, '--item', 'Consulting:2:50', '--memo', '', '--json'),
    );
    expect(edited).toMatchObject({ subtotal: '100', tax: '0', total: '100', memo: null });

    const finalized = text(await merchant('invoice', 'finalize', draft.id));
    const url = /^finalized invoice INV-000001: (\S+)$/m.exec(finalized)?.[1];
    expect(url).toMatch(new RegExp(`^${server.url}/i/`));
    const late = await merchant('invoice', 'update', draft.id, '--memo', 'late');
    expect(failure(late, 1)).toMatch(/^hostpay: INVOICE_STATE_CONFLICT: /);

    expect(lines(text(await merchant('invoice', 'send', draft.id)))[0]).toBe(
      'sent invoice INV-000001 to ada@example.com',
    );
    const out = join(dir.dir, 'invoice.pdf');
    expect(
      json<{ file: string; bytes: string }>(await merchant('invoice', 'pdf', draft.id, '-o', out, '--json')),
    ).toEqual({
      file: out,
      bytes: String(readFileSync(out).length),
    });
    expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const voided = json<InvoiceDoc>(await merchant('invoice', 'void', draft.id, '--json'));
    expect(voided).toMatchObject({ status: 'void', number: 'INV-000001', amountDue: '0' });
    expect(failure(await merchant('invoice', 'send', draft.id), 1)).toMatch(/^hostpay: INVOICE_STATE_CONFLICT: /);
  });

  it('invoice list as a table with filters; show; delete a draft; send without an email', async () => {
    const b = json<InvoiceDoc>(await merchant('invoice', 'create', 'EUR', '--item', 'Thing:1:5', '--json'));
    const table = cells(text(await merchant('invoice', 'list')));
    expect(table[0]).toEqual(['ID', 'NUMBER', 'STATUS', 'TOTAL', 'DUE', 'CURRENCY', 'CUSTOMER', 'CREATED']);
    expect(table.slice(1).map((r) => r.slice(0, 7))).toEqual([
      [b.id, '-', 'draft', '5', '5', 'EUR', '-'],
      [expect.stringMatching(/^inv_/), 'INV-000001', 'void', '100', '0', 'EUR', 'Ada <ada@example.com>'],
    ]);
    const drafts = json<{ items: InvoiceDoc[] }>(await merchant('invoice', 'list', '--status', 'draft', '--json'));
    expect(drafts.items.map((i) => i.id)).toEqual([b.id]);
    const byEmail = json<{ items: InvoiceDoc[] }>(
      await merchant('invoice', 'list', '--customer-email', 'ada@example.com', '--json'),
    );
    expect(byEmail.items.map((i) => i.number)).toEqual(['INV-000001']);
    expect(failure(await merchant('invoice', 'list', '--status', 'late'), 2)).toMatch(/--status/);

    const shown = text(await merchant('invoice', 'get', b.id));
    expect(shown).toMatch(/^total +5 EUR$/m);
    expect(cells(shown).find((r) => r[0] === 'Thing')).toEqual(['Thing', '1', '5', '-', '5', '0']);

    const c = json<InvoiceDoc>(await merchant('invoice', 'create', 'EUR', '--item', 'Other:1:7', '--json'));
    text(await merchant('invoice', 'finalize', c.id));
    const noEmail = await merchant('invoice', 'send', c.id);
    expect(failure(noEmail, 1)).toMatch(/^hostpay: CUSTOMER_EMAIL_MISSING: /);
    expect(json<InvoiceDoc>(await merchant('invoice', 'mark-uncollectible', c.id, '--json')).status).toBe(
      'uncollectible',
    );

    expect(lines(text(await merchant('invoice', 'delete', b.id)))).toEqual([`deleted draft invoice ${b.id}`]);
    expect(failure(await merchant('invoice', 'show', b.id), 1)).toMatch(/^hostpay: NOT_FOUND: /);
    expect(failure(await merchant('invoice', 'create', 'EUR', '--item', 'a:b'), 2)).toMatch(/DESCRIPTION:QTY/);
  });

  it('settings set → get: colours normalised, a colour below AA refused with its ratio and a shade to try, --json', async () => {
    const set = json<{ brandColor: string; accentColor: string | null; language: string }>(
      await merchant('settings', 'set', '--brand-color', '#8B7500', '--language', 'de', '--json'),
    );
    expect(set).toMatchObject({ brandColor: '#8b7500', accentColor: null, language: 'de' });
    const shown = text(await merchant('settings', 'get'));
    expect(shown).toMatch(/^brandColor: #8b7500$/m);
    expect(shown).toMatch(/^language: de$/m);
    expect(failure(await merchant('settings', 'set', '--accent-color', '#ffd700'), 1)).toMatch(
      /^hostpay: INVALID_BODY: accentColor #ffd700 has contrast 1\.\d\d:1 .*: try #[0-9a-f]{6}/,
    );
    expect(failure(await merchant('settings', 'set'), 2)).toMatch(/--brand-color/);
    const cleared = json<{ brandColor: null; language: null }>(
      await merchant('settings', 'set', '--brand-color', 'none', '--language', 'none', '--json'),
    );
    expect(cleared).toMatchObject({ brandColor: null, language: null });
  });
});
