import type { Command } from 'commander';
import type { Io } from '../output.js';
import type { AdminBackend, Page, PageRequest } from './backend.js';
import { withBackend } from './open-backend.js';
import { pageRequest, withAdminOptions, withPageOptions, type AdminOptions, type PageOptions } from './options.js';
import { printAdmin, printPage, type TableSpec } from './print.js';

/** `--status`, `--all` and `--merchant`: what every review list takes. */
export interface ReviewListOptions extends AdminOptions, PageOptions {
  all?: boolean;
  status?: string;
  merchant?: string;
}

/** What a review list asks the backend for: the page, the status (undefined: every status), the merchant. */
export interface ReviewQuery extends PageRequest {
  status: string | undefined;
  merchantId: string | undefined;
}

export interface ReviewSpec<T, O extends ReviewListOptions> {
  /** What is reviewed, for the descriptions: "checkouts", "payouts". */
  plural: string;
  /** The status the queue shows by default, e.g. needs_review. */
  queueStatus: string;
  description: string;
  listDescription: string;
  getDescription: string;
  /** The argument of `get`, e.g. `<checkout-id>`, and its example. */
  idArgument: [name: string, example: string];
  /** Options of `list` beyond the common ones, as commander options. */
  listOptions?: (cmd: Command) => Command;
  list: (backend: AdminBackend, query: ReviewQuery, opts: O) => Promise<Page<T>>;
  get: (backend: AdminBackend, id: string) => Promise<T>;
  table: TableSpec<T>;
  /** The line printed when the queue (default status) is empty. */
  emptyQueue: string;
  describe: (item: T) => string;
}

/**
 * An operator review queue, `PARENT review list|get`: every merchant's items, those in the queue's
 * status by default (`--all`, `--status` for others, `--merchant` for one merchant). Checkouts
 * (needs_review) and payouts (pending_approval) are reviewed the same way. Returns the `review`
 * command, so a caller can add the queue's own actions to it.
 */
export function registerReviewCommands<T, O extends ReviewListOptions>(
  parent: Command,
  io: Io,
  spec: ReviewSpec<T, O>,
): Command {
  const review = parent.command('review').description(spec.description);
  const listCmd = withPageOptions(withAdminOptions(review.command('list').description(spec.listDescription)))
    .option('--all', `every status, not only ${spec.queueStatus}`)
    .option('--status <status>', `only this status (instead of ${spec.queueStatus})`)
    .option('--merchant <id>', `only this merchant's ${spec.plural}`);
  (spec.listOptions ? spec.listOptions(listCmd) : listCmd).action(async (opts: O) => {
    const status = opts.status ?? (opts.all ? undefined : spec.queueStatus);
    const page = await withBackend(io, opts, (b) =>
      spec.list(b, { ...pageRequest(opts), status, merchantId: opts.merchant }, opts),
    );
    printPage(io, opts.json, page, {
      ...spec.table,
      empty: status === spec.queueStatus ? spec.emptyQueue : spec.table.empty,
    });
  });

  const [idName, idExample] = spec.idArgument;
  withAdminOptions(review.command('get').description(spec.getDescription).argument(idName, idExample)).action(
    async (id: string, opts: AdminOptions) => {
      const item = await withBackend(io, opts, (b) => spec.get(b, id));
      printAdmin(io, opts.json, item, () => spec.describe(item));
    },
  );
  return review;
}
