import type { Command } from 'commander';
import type { Checkout } from '@hostpay/client';
import { withBackend } from '../admin/open-backend.js';
import { withWriteOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin } from '../admin/print.js';
import { registerReviewCommands, type ReviewListOptions } from '../admin/review-commands.js';
import { CHECKOUT_COLUMNS, checkoutRow, describeCheckout } from '../checkout-view.js';
import type { Io } from '../output.js';

interface CheckoutReviewOptions extends ReviewListOptions {
  orderId?: string;
}

/**
 * The operators' side of `hostpay checkout`: checkouts of every merchant, and the review of those
 * in needs_review (settle credits what was received minus its fee; reject credits nothing).
 */
export function registerCheckoutReview(checkout: Command, io: Io): void {
  registerReviewCommands<Checkout, CheckoutReviewOptions>(checkout, io, {
    plural: 'checkouts',
    queueStatus: 'needs_review',
    description: 'operators: checkouts of every merchant, those in needs_review by default',
    listDescription: 'operators: checkouts waiting for review (needs_review), oldest first; --all for every status',
    getDescription: 'operators: one checkout of any merchant',
    idArgument: ['<checkout-id>', 'e.g. chk_...'],
    listOptions: (cmd) => cmd.option('--order-id <id>', 'only checkouts with this order id'),
    list: (b, q, opts) => b.checkouts.list({ ...q, orderId: opts.orderId }),
    get: (b, id) => b.checkouts.get(id),
    table: { columns: CHECKOUT_COLUMNS, row: checkoutRow, empty: 'no checkouts' },
    emptyQueue: 'no checkouts need review',
    describe: describeCheckout,
  });

  withWriteOptions(
    checkout
      .command('settle')
      .description('operators: settle a checkout in needs_review, crediting what was received minus the fee for it'),
  )
    .argument('<checkout-id>', 'e.g. chk_...')
    .option('--asset <symbol>', 'which payments to credit when several assets arrived')
    .option('--chain <symbol>', 'with --asset: the chain they arrived on')
    .action(async (id: string, opts: WriteOptions & { asset?: string; chain?: string }) => {
      const c = await withBackend(io, opts, (b) =>
        b.checkouts.settle(id, { asset: opts.asset, chain: opts.chain }, opts),
      );
      printAdmin(io, opts.json, c, () => `settled checkout ${c.id}${reasonOf(c)}: the merchant's wallet is credited`);
    });

  withWriteOptions(
    checkout
      .command('reject')
      .description('operators: reject a checkout in needs_review (invalid; nothing is credited)'),
  )
    .argument('<checkout-id>', 'e.g. chk_...')
    .action(async (id: string, opts: WriteOptions) => {
      const c = await withBackend(io, opts, (b) => b.checkouts.reject(id, opts));
      printAdmin(io, opts.json, c, () => `rejected checkout ${c.id}: ${c.status}${reasonOf(c)}, nothing credited`);
    });
}

const reasonOf = (c: Checkout): string => (c.reason === null ? '' : ` (${c.reason})`);
