import { InvalidArgumentError, type Command } from 'commander';
import type { CollectEmail, CreatePaymentLinkParams, PaymentLink, UpdatePaymentLinkParams } from '@hostpay/client';
import { PAYMENT_LINK_LIMITS } from '@hostpay/protocol';
import { CHECKOUT_COLUMNS, checkoutRow } from '../checkout-view.js';
import { describeLink, LINK_COLUMNS, linkRow } from '../commerce-view.js';
import { collectLinkItem, linesOf, linkItemsFile, type LinkLine } from '../line-items.js';
import { withJsonDecimals } from '../merchant-api.js';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { integerIn } from '../options.js';
import { listDocument, moreLine, printResult, UsageError, type Io } from '../output.js';
import { renderTable } from '../table.js';
import { collectMetadata, collectOption } from './checkout.js';

interface WriteFlags extends MerchantFlags {
  idempotencyKey?: string;
}

interface CreateFlags extends WriteFlags {
  amount?: string;
  minAmount?: string;
  maxAmount?: string;
  item?: LinkLine[];
  itemsFile?: string;
  description?: string;
  option?: { asset: string; chain: string }[];
  collectEmail?: CollectEmail;
  successUrl?: string;
  cancelUrl?: string;
  maxUses?: number;
  expiresAt?: string;
  inactive?: boolean;
  metadata?: Record<string, string>;
}

interface UpdateFlags extends WriteFlags {
  name?: string;
  description?: string;
  maxUses?: number | 'none';
  expiresAt?: string;
  successUrl?: string;
  cancelUrl?: string;
  metadata?: Record<string, string>;
  active?: boolean;
  inactive?: boolean;
}

export const IDEMPOTENCY_HELP =
  'sent as Idempotency-Key, so repeating the command acts once (default: a random key per run)';
const COLLECT_EMAIL: readonly CollectEmail[] = ['none', 'optional', 'required'];

function collectEmail(text: string): CollectEmail {
  if (!COLLECT_EMAIL.includes(text as CollectEmail))
    throw new InvalidArgumentError('must be none, optional or required');
  return text as CollectEmail;
}

// Commander turns a parser's null into '': the words that clear a setting stay words until the action.
/** `--max-uses N`, or `none` (update: no limit). */
const maxUsesOrNone = (text: string): number | 'none' => (text === 'none' ? 'none' : integerIn(1, 1_000_000)(text));
/** '' clears a nullable text field in an update. */
const orNull = (text: string | undefined): string | null | undefined => (text === '' ? null : text);

/**
 * `hostpay link …`: the merchant's payment links (reusable pages that make a checkout for each
 * payer) through the merchant API (the client): create, list, get, update, deactivate, activate,
 * checkouts. A link is never deleted: deactivate it.
 */
export function registerLink(program: Command, io: Io): void {
  const link = program
    .command('link')
    .description(
      'payment links (a reusable page, /l/{slug}, that makes a checkout per payer): create, list, get, update, deactivate, activate, checkouts',
    );
  const show = (opts: MerchantFlags, l: PaymentLink, text: () => string = () => describeLink(l)) =>
    printResult(io, opts.json, withJsonDecimals(l), text);

  merchantCommand(
    link
      .command('create')
      .description('create a payment link (POST /api/v1/cp/payment-links) and print its page URL')
      .argument('<name>', 'shown as the page title, e.g. "Coffee"')
      .argument('<currency>', 'any currency checkouts accept, e.g. EUR')
      .option('--amount <amount>', 'a fixed price (with --item: must equal their sum)')
      .option(
        '--item <name:qty:price>',
        `a line, e.g. "Espresso:2:2.55" (quantity 1 to ${PAYMENT_LINK_LIMITS.quantityMax}); repeat for more (at most ${PAYMENT_LINK_LIMITS.lineItems}); the price is their sum`,
        collectLinkItem,
      )
      .option('--items-file <file>', 'the lines as a JSON array of {name, quantity, unitAmount}, before any --item')
      .option('--min-amount <amount>', 'without a price: the lowest amount the payer may type')
      .option('--max-amount <amount>', 'without a price: the highest amount the payer may type')
      .option('--description <text>', 'shown on the page and given to each checkout (at most 500 characters)')
      .option(
        '--option <asset/chain>',
        'offer this asset on this chain, e.g. USDT/TRON; repeat for more',
        collectOption,
      )
      .option('--collect-email <mode>', 'ask the payer for an email: none (default), optional, required', collectEmail)
      .option('--success-url <url>', 'where the payer goes once paid (https; may hold {CHECKOUT_ID})')
      .option('--cancel-url <url>', 'where "cancel and return" goes (default: the link\'s page)')
      .option('--max-uses <n>', 'settled (plus live) checkouts at most (default: no limit)', integerIn(1, 1_000_000))
      .option('--expires-at <time>', 'RFC 3339 time after which the link makes no checkout (default: never)')
      .option('--inactive', 'create it switched off (activate it later)')
      .option(
        '--metadata <key=value>',
        'a string pair copied to every checkout; repeat for more (at most 20)',
        collectMetadata,
      )
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  )
    .addHelpText(
      'after',
      '\nThe price is --amount, or the sum of the --item lines, or typed by the payer (within --min-amount and\n--max-amount) when neither is given. With --json: the link as the API returns it, amounts exact.',
    )
    .action(async (name: string, currency: string, opts: CreateFlags) => {
      const lineItems = linesOf(opts.itemsFile === undefined ? undefined : linkItemsFile(opts.itemsFile), opts.item);
      const params: CreatePaymentLinkParams = {
        name,
        currency,
        description: opts.description,
        amount: opts.amount,
        minAmount: opts.minAmount,
        maxAmount: opts.maxAmount,
        lineItems,
        paymentOptions: opts.option,
        collectEmail: opts.collectEmail,
        successUrl: opts.successUrl,
        cancelUrl: opts.cancelUrl,
        maxUses: opts.maxUses,
        expiresAt: opts.expiresAt,
        active: opts.inactive ? false : undefined,
        metadata: opts.metadata,
      };
      const l = await withClient(io, opts, (client) =>
        client.paymentLinks.create(params, { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant }),
      );
      show(opts, l, () => `created payment link ${l.id}: ${l.url}\n\n${describeLink(l)}`);
    });

  merchantCommand(
    link
      .command('list')
      .description('list your payment links, newest first (GET /api/v1/cp/payment-links)')
      .option('--active', 'only active links')
      .option('--inactive', 'only deactivated links')
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  )
    .addHelpText('after', '\nWith --json: {"items": [...], "nextCursor": ...}, amounts as exact JSON number literals.')
    .action(async (opts: MerchantFlags & { active?: boolean; inactive?: boolean; limit?: number; cursor?: string }) => {
      if (opts.active && opts.inactive) throw new UsageError('give --active or --inactive, not both');
      const active = opts.active ? true : opts.inactive ? false : undefined;
      const page = await withClient(io, opts, (client) =>
        client.paymentLinks.list({ active, limit: opts.limit, cursor: opts.cursor, merchantId: opts.merchant }),
      );
      printResult(io, opts.json, withJsonDecimals(listDocument(page.items, page.nextCursor)), () => {
        if (page.items.length === 0)
          return 'no payment links: create one with hostpay link create NAME CURRENCY --amount 5';
        return renderTable(LINK_COLUMNS, page.items.map(linkRow)) + moreLine(page.nextCursor);
      });
    });

  merchantCommand(
    link
      .command('get')
      .alias('show')
      .description('show one payment link: URL, price, lines, uses, status')
      .argument('<link-id>', 'e.g. plink_...'),
  ).action(async (id: string, opts: MerchantFlags) =>
    show(opts, await withClient(io, opts, (client) => client.paymentLinks.get(id, { merchantId: opts.merchant }))),
  );

  registerLinkChanges(link, io, show);
}

type Show = (opts: MerchantFlags, l: PaymentLink, text?: () => string) => void;

/** What changes a link: update, deactivate, activate; and the checkouts it made. */
function registerLinkChanges(link: Command, io: Io, show: Show): void {
  merchantCommand(
    link
      .command('update')
      .description('change a payment link (PATCH …/{id}); never its price: checkouts already made keep theirs')
      .argument('<link-id>', 'e.g. plink_...')
      .option('--name <text>', 'the page title')
      .option('--description <text>', 'the description ("" clears it)')
      .option('--max-uses <n>', 'settled (plus live) checkouts at most, or "none" for no limit', maxUsesOrNone)
      .option('--expires-at <time>', 'RFC 3339 time, or "never"')
      .option('--success-url <url>', 'where the payer goes once paid ("" clears it)')
      .option('--cancel-url <url>', 'where "cancel and return" goes ("" clears it: the link\'s page)')
      .option('--metadata <key=value>', 'replaces every metadata pair; repeat for more', collectMetadata)
      .option('--active', 'switch it on')
      .option('--inactive', 'switch it off')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  ).action(async (id: string, opts: UpdateFlags) => {
    if (opts.active && opts.inactive) throw new UsageError('give --active or --inactive, not both');
    const params: UpdatePaymentLinkParams = {
      name: opts.name,
      description: orNull(opts.description),
      maxUses: opts.maxUses === 'none' ? null : opts.maxUses,
      expiresAt: opts.expiresAt === 'never' ? null : opts.expiresAt,
      successUrl: orNull(opts.successUrl),
      cancelUrl: orNull(opts.cancelUrl),
      metadata: opts.metadata,
      active: opts.active ? true : opts.inactive ? false : undefined,
    };
    if (Object.values(params).every((v) => v === undefined))
      throw new UsageError(
        'link update needs at least one of --name, --description, --max-uses, --expires-at, --success-url, --cancel-url, --metadata, --active, --inactive',
      );
    const l = await withClient(io, opts, (client) =>
      client.paymentLinks.update(id, params, { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey }),
    );
    show(opts, l, () => `updated payment link ${l.id}\n\n${describeLink(l)}`);
  });

  for (const [name, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const)
    merchantCommand(
      link
        .command(name)
        .description(
          active
            ? 'switch a payment link back on (an expired or used-up link stays unavailable)'
            : 'switch a payment link off: its page answers 410 and makes no checkout; checkouts already made stay payable',
        )
        .argument('<link-id>', 'e.g. plink_...')
        .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
    ).action(async (id: string, opts: WriteFlags) => {
      const l = await withClient(io, opts, (client) =>
        client.paymentLinks[name](id, { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey }),
      );
      show(opts, l, () => `payment link ${l.id} is ${l.status}`);
    });

  merchantCommand(
    link
      .command('checkouts')
      .description('the checkouts a payment link made, newest first (needs checkout:read)')
      .argument('<link-id>', 'e.g. plink_...')
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  ).action(async (id: string, opts: MerchantFlags & { limit?: number; cursor?: string }) => {
    const page = await withClient(io, opts, (client) =>
      client.paymentLinks.listCheckouts(id, { limit: opts.limit, cursor: opts.cursor, merchantId: opts.merchant }),
    );
    printResult(io, opts.json, withJsonDecimals(listDocument(page.items, page.nextCursor)), () => {
      if (page.items.length === 0) return `payment link ${id} has made no checkout yet`;
      return renderTable(CHECKOUT_COLUMNS, page.items.map(checkoutRow)) + moreLine(page.nextCursor);
    });
  });
}
