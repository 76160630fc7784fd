import { CHECKOUT_STATUS_VALUES } from '@hostpay/protocol';
import { InvalidArgumentError, type Command } from 'commander';
import type { Checkout, CheckoutStatus, CreateCheckoutParams } from '@hostpay/client';
import { CHECKOUT_COLUMNS, checkoutRow, describeCheckout } from '../checkout-view.js';
import { withJsonDecimals } from '../merchant-api.js';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { openUrl } from '../open-url.js';
import { integerIn } from '../options.js';
import { listDocument, moreLine, notice, printResult, UsageError, type Io } from '../output.js';
import { renderTable } from '../table.js';
import { registerCheckoutReview } from './checkout-review.js';

interface CreateFlags extends MerchantFlags {
  orderId?: string;
  description?: string;
  option?: { asset: string; chain: string }[];
  expiresIn?: number;
  successUrl?: string;
  cancelUrl?: string;
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  open?: boolean;
}

const STATUSES: readonly CheckoutStatus[] = CHECKOUT_STATUS_VALUES;

/** `--option USDT/TRON`, repeatable. */
export function collectOption(text: string, previous: { asset: string; chain: string }[] = []) {
  const m = /^([A-Za-z0-9]{1,12})\/([A-Za-z0-9]{1,12})$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError('must be ASSET/CHAIN, e.g. USDT/TRON');
  return [...previous, { asset: m[1] as string, chain: m[2] as string }];
}

/** `--metadata key=value`, repeatable; a key given twice is a mistake, not an overwrite. */
export function collectMetadata(text: string, previous: Record<string, string> = {}) {
  const eq = text.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('must be KEY=VALUE, e.g. cart=42');
  const key = text.slice(0, eq);
  if (Object.hasOwn(previous, key)) throw new InvalidArgumentError(`key ${JSON.stringify(key)} given twice`);
  return { ...previous, [key]: text.slice(eq + 1) };
}

/** Prints a checkout: as JSON with --json, else `text` (by default the checkout described). */
const showCheckout =
  (io: Io) =>
  (opts: MerchantFlags, c: Checkout, text: () => string = () => describeCheckout(c)) =>
    printResult(io, opts.json, withJsonDecimals(c), text);

export function registerCheckout(program: Command, io: Io): void {
  const checkout = program
    .command('checkout')
    .description('hosted checkouts: create, list, get, cancel, pay in a sandbox; operators: review, settle, reject');
  const show = showCheckout(io);

  merchantCommand(
    checkout
      .command('create')
      .description('create a hosted checkout (POST /api/v1/cp/psp/hosted-pay) and print its id and payment page URL')
      .argument(
        '<amount>',
        'positive decimal, at most 18 fractional digits, e.g. 100 or 99.95 (sent exactly as written)',
      )
      .argument('<currency>', 'any currency the fee preview accepts, e.g. EUR')
      .option('--order-id <id>', 'your order reference (at most 64 characters, not unique)')
      .option('--description <text>', 'shown to the payer on the page (at most 500 characters)')
      .option(
        '--option <asset/chain>',
        'offer this asset on this chain, e.g. USDT/TRON; repeat for more (default: every active wallet that can be priced)',
        collectOption,
      )
      .option(
        '--expires-in <seconds>',
        'seconds until it expires and its rates unlock, 300 to 86400 (default 900)',
        integerIn(300, 86_400),
      )
      .option('--success-url <url>', 'where the page sends the payer once paid (https; http to loopback on a sandbox)')
      .option('--cancel-url <url>', 'where "cancel and return" goes (https; http to loopback on a sandbox)')
      .option(
        '--metadata <key=value>',
        'a string pair kept with the checkout; repeat for more (at most 20)',
        collectMetadata,
      )
      .option(
        '--idempotency-key <key>',
        'sent as Idempotency-Key, so repeating the command creates one checkout (default: a random key)',
      )
      .option(
        '--open',
        'open the payment page in the default browser when this machine can (the URL is printed either way)',
      ),
  )
    .addHelpText(
      'after',
      '\nPrints the id and the page URL first, then the options to pay with. With --json: the checkout as the API\nreturns it, amounts as exact JSON number literals.',
    )
    .action(async (amount: string, currency: string, opts: CreateFlags) => {
      const params: CreateCheckoutParams = {
        amount,
        currency,
        orderId: opts.orderId,
        description: opts.description,
        paymentOptions: opts.option,
        expiresIn: opts.expiresIn,
        successUrl: opts.successUrl,
        cancelUrl: opts.cancelUrl,
        metadata: opts.metadata,
      };
      const c = await withClient(io, opts, (client) =>
        client.checkouts.create(params, { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant }),
      );
      show(opts, c);
      if (opts.open && !(await openUrl(c.url, io.env)))
        notice(io, `could not open a browser on this machine: open ${c.url} yourself`);
    });

  merchantCommand(
    checkout
      .command('list')
      .description('list your checkouts, newest first (GET /api/v1/cp/psp/hosted-pay)')
      .option('--status <status>', `only this status: ${STATUSES.join(', ')}`)
      .option('--order-id <id>', 'only checkouts with this order id')
      .option('--from <time>', 'created at or after (ISO 8601, e.g. 2026-01-31T00:00:00Z)')
      .option('--to <time>', 'created before (ISO 8601)')
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  )
    .addHelpText('after', '\nWith --json: {"items": [...], "nextCursor": ...}, amounts as exact JSON number literals.')
    .action(
      async (
        opts: MerchantFlags & {
          status?: string;
          orderId?: string;
          from?: string;
          to?: string;
          limit?: number;
          cursor?: string;
        },
      ) => {
        if (opts.status !== undefined && !STATUSES.includes(opts.status as CheckoutStatus))
          throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(opts.status)}`);
        const filters = {
          status: opts.status as CheckoutStatus | undefined,
          orderId: opts.orderId,
          createdFrom: opts.from,
          createdTo: opts.to,
          limit: opts.limit,
          cursor: opts.cursor,
          merchantId: opts.merchant,
        };
        const page = await withClient(io, opts, (client) => client.checkouts.list(filters));
        printResult(io, opts.json, withJsonDecimals(listDocument(page.items, page.nextCursor)), () => {
          if (page.items.length === 0) return 'no checkouts: create one with hostpay checkout create 100 EUR';
          return renderTable(CHECKOUT_COLUMNS, page.items.map(checkoutRow)) + moreLine(page.nextCursor);
        });
      },
    );

  merchantCommand(
    checkout
      .command('get')
      .description('show one checkout: status, options, payments, timeline')
      .argument('<checkout-id>', 'e.g. chk_...'),
  ).action(async (id: string, opts: MerchantFlags) =>
    show(opts, await withClient(io, opts, (client) => client.checkouts.get(id, { merchantId: opts.merchant }))),
  );

  registerCheckoutActions(checkout, io);
}

/** What a merchant does to one checkout: cancel it, pay it in a sandbox, refund it. */
function registerCheckoutActions(checkout: Command, io: Io): void {
  const show = showCheckout(io);

  merchantCommand(
    checkout
      .command('cancel')
      .description('cancel an open checkout (fails with CHECKOUT_STATE_CONFLICT once anything was paid)')
      .argument('<checkout-id>', 'e.g. chk_...'),
  ).action(async (id: string, opts: MerchantFlags) => {
    const c = await withClient(io, opts, (client) => client.checkouts.cancel(id, { merchantId: opts.merchant }));
    show(opts, c, () => `canceled checkout ${c.id}`);
  });

  merchantCommand(
    checkout
      .command('pay')
      .description('sandbox only: pay a checkout as if a chain indexer saw the transfer (POST …/{id}/simulate-payment)')
      .argument('<checkout-id>', 'e.g. chk_...')
      .option('--amount <amount>', 'amount sent, in the asset (default: what is still due on that option)')
      .option('--asset <symbol>', "asset paid (default: the first payment option's, or the one on --chain)")
      .option('--chain <symbol>', "chain paid on (default: the first payment option's, or the one for --asset)")
      .option(
        '--confirmations <n>',
        "confirmations so far (default: the chain's requirement, so it confirms at once)",
        integerIn(0, 1_000_000),
      ),
  ).action(
    async (
      id: string,
      opts: MerchantFlags & { amount?: string; asset?: string; chain?: string; confirmations?: number },
    ) => {
      const c = await withClient(io, opts, async (client) => {
        let { asset, chain } = opts;
        if (asset === undefined || chain === undefined) {
          // Which option to pay: the one the flags name, else the first; the server needs both.
          const current = await client.checkouts.get(id, { merchantId: opts.merchant });
          const option = current.paymentOptions.find(
            (o) =>
              (asset === undefined || o.asset === asset.toUpperCase()) &&
              (chain === undefined || o.chain === chain.toUpperCase()),
          );
          if (option === undefined)
            throw new UsageError(
              `checkout ${id} has no payment option${asset ? ` in ${asset}` : ''}${chain ? ` on ${chain}` : ''}: see hostpay checkout get ${id}`,
            );
          asset ??= option.asset;
          chain ??= option.chain;
        }
        return client.checkouts.simulatePayment(
          id,
          { asset, chain, amount: opts.amount, confirmations: opts.confirmations },
          { merchantId: opts.merchant },
        );
      });
      show(opts, c, () => {
        const last = c.payments.at(-1);
        const paid = last === undefined ? 'paid' : `paid ${last.amount} ${last.asset} on ${last.chain}`;
        return `${paid}: checkout ${c.id} is ${c.reason === null ? c.status : `${c.status} (${c.reason})`}\n\n${describeCheckout(c)}`;
      });
    },
  );

  merchantCommand(
    checkout
      .command('refund')
      .description(
        "refund AMOUNT of a checkout that received money (needs payouts:write). Quickest: without --destination, a refund link the payer opens to give their address (once, 7 days, no cooling-off). With --destination, a payout to an active address of your payout address book on the checkout's chain (a new one, `payout destination add`, cools off 24 h by default)",
      )
      .argument('<checkout-id>', 'e.g. chk_...')
      .argument('<amount>', "in the checkout's asset; at most what it received minus earlier refunds")
      .option(
        '--destination <address>',
        "an active address of your payout address book on the checkout's chain (default: a refund link instead)",
      )
      .option('--idempotency-key <key>', 'sent as Idempotency-Key, so repeating the command refunds once')
      .option(SEND_EMAIL[0], SEND_EMAIL[1])
      .option(CUSTOMER_EMAIL[0], CUSTOMER_EMAIL[1]),
  ).action(
    async (
      id: string,
      amount: string,
      opts: MerchantFlags & { destination?: string; idempotencyKey?: string } & MailFlags,
    ) => {
      const r = await withClient(io, opts, (client) =>
        client.checkouts.refund(
          id,
          { amount, destination: opts.destination, ...mailOf(opts) },
          { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey },
        ),
      );
      printResult(io, opts.json, withJsonDecimals(r), () =>
        'url' in r ? describeLink(r) : `refund payout ${r.id}: ${r.status}, ${r.amount} ${r.asset} to ${r.destination}`,
      );
    },
  );

  merchantCommand(
    checkout
      .command('refund-link')
      .description(
        'the quick way to refund: a link the payer opens on the payment page to give their address (7 days, once; needs payouts:write)',
      )
      .argument('<checkout-id>', 'e.g. chk_...')
      .option('--amount <amount>', 'what the payer gets back (default: whatever is still refundable then)')
      .option(SEND_EMAIL[0], SEND_EMAIL[1])
      .option(CUSTOMER_EMAIL[0], CUSTOMER_EMAIL[1]),
  ).action(async (id: string, opts: MerchantFlags & { amount?: string } & MailFlags) => {
    const link = await withClient(io, opts, (client) =>
      client.checkouts.refundLink(id, { amount: opts.amount, ...mailOf(opts) }, { merchantId: opts.merchant }),
    );
    printResult(io, opts.json, withJsonDecimals(link), () => describeLink(link));
  });

  registerCheckoutReview(checkout, io);
}

type MailFlags = { sendEmail?: boolean; customerEmail?: string };
const SEND_EMAIL = [
  '--send-email',
  "also mail the refund link to the payer (the checkout's customerEmail, or --customer-email), in your name",
] as const;
const CUSTOMER_EMAIL = [
  '--customer-email <address>',
  "with --send-email: the payer's address to mail the link to",
] as const;
const mailOf = (opts: MailFlags) => ({
  ...(opts.sendEmail === true ? { sendEmail: true } : {}),
  ...(opts.customerEmail === undefined ? {} : { customerEmail: opts.customerEmail }),
});

/** A refund link as the terminal shows it; without an amount the payer gets what is left when they submit. */
function describeLink(link: { amount?: string | null; asset: string; expiresAt: string; url: string }): string {
  const what =
    link.amount === null || link.amount === undefined
      ? `whatever is still refundable in ${link.asset} when the payer submits`
      : `${link.amount} ${link.asset}`;
  return `refund link for ${what} (hand it to the payer only; works once, until ${link.expiresAt}):\n${link.url}`;
}
