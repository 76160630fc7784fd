import type { Command } from 'commander';
import type { Checkout } from '@hostpay/client';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  withWriteOptions,
  type AdminOptions,
  type PageOptions,
  type WriteOptions,
} from '../admin/options.js';
import { printAdmin, printPage } from '../admin/print.js';
import { CHECKOUT_COLUMNS, checkoutRow, describeCheckout } from '../checkout-view.js';
import type { Io } from '../output.js';

interface ReviewListOptions extends AdminOptions, PageOptions {
  all?: boolean;
  status?: string;
  merchant?: string;
  orderId?: string;
}

/**
 * The operators' side of `hostpay checkout`: checkouts of every merchant, and the review of those
 * in needs_review (settle credits what was received minus its fee; reject credits nothing).
 */
export function registerCheckoutReview(checkout: Command, io: Io): void {
  const review = checkout
    .command('review')
    .description('operators: checkouts of every merchant, those in needs_review by default');
  const listCmd = withPageOptions(
    withAdminOptions(
      review
        .command('list')
        .description('operators: checkouts waiting for review (needs_review), oldest first; --all for every status'),
    ),
  )
    .option('--all', 'every status, not only needs_review')
    .option('--status <status>', 'only this status (instead of needs_review)')
    .option('--merchant <id>', "only this merchant's checkouts")
    .option('--order-id <id>', 'only checkouts with this order id');
  listCmd.action(async (opts: ReviewListOptions) => {
    const status = opts.status ?? (opts.all ? undefined : 'needs_review');
    const page = await withBackend(io, opts, (b) =>
      b.checkouts.list({ ...pageRequest(opts), status, merchantId: opts.merchant, orderId: opts.orderId }),
    );
    printPage(io, opts.json, page, {
      columns: CHECKOUT_COLUMNS,
      row: checkoutRow,
      empty: status === 'needs_review' ? 'no checkouts need review' : 'no checkouts',
    });
  });

  withAdminOptions(
    review
      .command('get')
      .description('operators: one checkout of any merchant')
      .argument('<checkout-id>', 'e.g. chk_...'),
  ).action(async (id: string, opts: AdminOptions) => {
    const c = await withBackend(io, opts, (b) => b.checkouts.get(id));
    printAdmin(io, opts.json, c, () => describeCheckout(c));
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
