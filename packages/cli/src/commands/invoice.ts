import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Invoice, InvoiceLineInput, InvoiceStatus, UpdateInvoiceParams } from '@hostpay/client';
import { INVOICE_STATUS_VALUES } from '@hostpay/protocol';
import { describeInvoice, INVOICE_COLUMNS, invoiceRow } from '../commerce-view.js';
import { collectInvoiceItem, invoiceItemsFile, linesOf } from '../line-items.js';
import { withJsonDecimals } from '../merchant-api.js';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { integerIn } from '../options.js';
import { listDocument, moreLine, printResult, UsageError, type Io } from '../output.js';
import { renderTable } from '../table.js';
import { collectMetadata } from './checkout.js';
import { IDEMPOTENCY_HELP } from './link.js';

interface WriteFlags extends MerchantFlags {
  idempotencyKey?: string;
}

interface DraftFlags extends WriteFlags {
  customerName?: string;
  customerEmail?: string;
  item?: InvoiceLineInput[];
  itemsFile?: string;
  dueAt?: string;
  memo?: string;
  metadata?: Record<string, string>;
  currency?: string;
}

/** The draft options create and update share; on update they replace what they name. */
function draftOptions(cmd: Command, update: boolean): Command {
  const clears = update ? ' ("" clears it)' : '';
  return cmd
    .option('--customer-name <name>', `the customer's name${clears}`)
    .option('--customer-email <email>', `the customer's email, where send mails the invoice${clears}`)
    .option(
      '--item <desc:qty:price[:tax%]>',
      `a line, e.g. "Consulting:1.5:120:20" (20 % tax); repeat for more (at most 100)${update ? '; replaces every line' : ''}`,
      collectInvoiceItem,
    )
    .option(
      '--items-file <file>',
      'the lines as a JSON array of {description, quantity, unitAmount, taxPercent?}, before any --item',
    )
    .option('--due-at <time>', `when payment is due, RFC 3339 with an offset${update ? ' ("none" clears it)' : ''}`)
    .option('--memo <text>', `a note printed on the invoice${clears}`)
    .option(
      '--metadata <key=value>',
      `a string pair; repeat for more (at most 20)${update ? '; replaces every pair' : ''}`,
      collectMetadata,
    )
    .option('--idempotency-key <key>', IDEMPOTENCY_HELP);
}

/** The draft fields the flags give; on update "" (and "none" for --due-at) clears. */
function draftParams(opts: DraftFlags, update: boolean): UpdateInvoiceParams {
  const clear = (text: string | undefined) => (update && text === '' ? null : text);
  const customer =
    opts.customerName === undefined && opts.customerEmail === undefined
      ? undefined
      : { name: clear(opts.customerName), email: clear(opts.customerEmail) };
  return {
    currency: opts.currency,
    customer,
    lineItems: linesOf(opts.itemsFile === undefined ? undefined : invoiceItemsFile(opts.itemsFile), opts.item),
    dueAt: update && opts.dueAt === 'none' ? null : opts.dueAt,
    memo: clear(opts.memo),
    metadata: opts.metadata,
  };
}

/**
 * `hostpay invoice …`: the merchant's invoices through the merchant API (the client). A draft is
 * created and edited, then finalized (number and public page), sent, and paid on its page.
 */
export function registerInvoice(program: Command, io: Io): void {
  const invoice = program
    .command('invoice')
    .description(
      'invoices: create a draft, update, finalize, send, void, mark uncollectible, delete a draft, list, get, pdf',
    );
  const show = (opts: MerchantFlags, i: Invoice, text: () => string = () => describeInvoice(i)) =>
    printResult(io, opts.json, withJsonDecimals(i), text);

  merchantCommand(
    draftOptions(
      invoice
        .command('create')
        .description('create a draft invoice (POST /api/v1/cp/invoices); finalize it to number it and get its page')
        .argument('<currency>', 'a currency hostpay knows, e.g. EUR'),
      false,
    ),
  )
    .addHelpText(
      'after',
      "\nLine amounts and taxes are rounded half-up to the currency's decimals, then summed. With --json: the invoice\nas the API returns it, amounts as exact JSON number literals.",
    )
    .action(async (currency: string, opts: DraftFlags) => {
      const params = { ...draftParams(opts, false), currency };
      const i = await withClient(io, opts, (client) =>
        client.invoices.create(params, { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant }),
      );
      show(opts, i, () => `created draft invoice ${i.id}: ${i.total} ${i.currency}\n\n${describeInvoice(i)}`);
    });

  merchantCommand(
    draftOptions(
      invoice
        .command('update')
        .description(
          'edit a draft (PATCH …/{id}; INVOICE_STATE_CONFLICT once finalized); options left out keep their value',
        )
        .argument('<invoice-id>', 'e.g. inv_...')
        .option('--currency <code>', 'another currency'),
      true,
    ),
  ).action(async (id: string, opts: DraftFlags) => {
    const params = draftParams(opts, true);
    if (Object.values(params).every((v) => v === undefined))
      throw new UsageError(
        'invoice update needs at least one of --currency, --customer-name, --customer-email, --item, --items-file, --due-at, --memo, --metadata',
      );
    const i = await withClient(io, opts, (client) =>
      client.invoices.update(id, params, { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant }),
    );
    show(opts, i, () => `updated draft invoice ${i.id}: ${i.total} ${i.currency}\n\n${describeInvoice(i)}`);
  });

  merchantCommand(
    invoice
      .command('list')
      .description('list your invoices, newest first (GET /api/v1/cp/invoices)')
      .addOption(new Option('--status <status>', 'only this status').choices(INVOICE_STATUS_VALUES))
      .option('--customer-email <email>', 'only invoices to this email (exact)')
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  )
    .addHelpText('after', '\nWith --json: {"items": [...], "nextCursor": ...}, amounts as exact JSON number literals.')
    .action(
      async (
        opts: MerchantFlags & { status?: InvoiceStatus; customerEmail?: string; limit?: number; cursor?: string },
      ) => {
        const filters = {
          status: opts.status,
          customerEmail: opts.customerEmail,
          limit: opts.limit,
          cursor: opts.cursor,
          merchantId: opts.merchant,
        };
        const page = await withClient(io, opts, (client) => client.invoices.list(filters));
        printResult(io, opts.json, withJsonDecimals(listDocument(page.items, page.nextCursor)), () => {
          if (page.items.length === 0)
            return 'no invoices: create one with hostpay invoice create EUR --item "Work:1:100"';
          return renderTable(INVOICE_COLUMNS, page.items.map(invoiceRow)) + moreLine(page.nextCursor);
        });
      },
    );

  merchantCommand(
    invoice
      .command('get')
      .alias('show')
      .description('show one invoice: number, status, customer, lines, totals, what is paid and due')
      .argument('<invoice-id>', 'e.g. inv_...'),
  ).action(async (id: string, opts: MerchantFlags) =>
    show(opts, await withClient(io, opts, (client) => client.invoices.get(id, { merchantId: opts.merchant }))),
  );

  registerInvoiceMoves(invoice, io, show);
}

type Show = (opts: MerchantFlags, i: Invoice, text?: () => string) => void;

const MOVES = [
  [
    'finalize',
    'finalize a draft: its number (gap-free per merchant) and its public page; needs a line and a total above 0',
    'finalize',
  ],
  ['void', 'void an open invoice (it keeps its number; its open checkouts are canceled)', 'void'],
  [
    'mark-uncollectible',
    'mark an open or partially paid invoice uncollectible (it can still be paid)',
    'markUncollectible',
  ],
  ['send', "email the invoice to its customer (CUSTOMER_EMAIL_MISSING without the customer's email)", 'send'],
  ['delete', 'delete a draft (a finalized one is refused: void it instead)', 'delete'],
] as const;

/** The state moves (finalize, void, mark-uncollectible, send, delete) and the PDF. */
function registerInvoiceMoves(invoice: Command, io: Io, show: Show): void {
  for (const [name, description, method] of MOVES)
    merchantCommand(
      invoice
        .command(name)
        .description(description)
        .argument('<invoice-id>', 'e.g. inv_...')
        .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
    ).action(async (id: string, opts: WriteFlags) => {
      const i = await withClient(io, opts, (client) =>
        client.invoices[method](id, { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant }),
      );
      const done = {
        finalize: () => `finalized invoice ${i.number}: ${i.url}`,
        void: () => `voided invoice ${i.number}`,
        markUncollectible: () => `invoice ${i.number} is uncollectible`,
        send: () => `sent invoice ${i.number} to ${i.customer.email}`,
        delete: () => `deleted draft invoice ${i.id}`,
      }[method];
      show(opts, i, method === 'delete' ? done : () => `${done()}\n\n${describeInvoice(i)}`);
    });

  merchantCommand(
    invoice
      .command('pdf')
      .description('save the invoice as a PDF (GET …/{id}/pdf; INVOICE_STATE_CONFLICT for a draft)')
      .argument('<invoice-id>', 'e.g. inv_...')
      .option('-o, --output <file>', 'where to write it (default: <number>.pdf in the current directory)'),
  ).action(async (id: string, opts: MerchantFlags & { output?: string }) => {
    const { file, bytes } = await withClient(io, opts, async (client) => {
      const bytes = await client.invoices.pdf(id, { merchantId: opts.merchant });
      const name = opts.output ?? `${(await client.invoices.get(id, { merchantId: opts.merchant })).number}.pdf`;
      return { file: resolve(name), bytes };
    });
    writeFileSync(file, bytes);
    printResult(io, opts.json, { file, bytes: bytes.length }, () => `wrote ${file} (${bytes.length} bytes)`);
  });
}
