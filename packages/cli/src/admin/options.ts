import { Option, type Command } from 'commander';
import { integerIn } from '../options.js';
import type { PageRequest } from './backend.js';

/** Options every operator command takes. */
export interface AdminOptions {
  adminUrl?: string;
  dataDir?: string;
  json?: boolean;
}

/** Options of an operator command that changes something. */
export interface WriteOptions extends AdminOptions {
  idempotencyKey?: string;
}

export function withAdminOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--admin-url <url>',
        "a server's admin API, e.g. https://pay.example.com (default: $HOSTPAY_ADMIN_URL; token from $HOSTPAY_ADMIN_TOKEN)",
      ).conflicts('dataDir'),
    )
    .option(
      '--data-dir <dir>',
      'without --admin-url: the local store and master key (default: $HOSTPAY_DATA_DIR or ./.hostpay)',
    )
    .option('--json', 'print one JSON document instead of text');
}

export function withWriteOptions(cmd: Command): Command {
  return withAdminOptions(cmd).option(
    '--idempotency-key <key>',
    'with --admin-url: the Idempotency-Key sent, so repeating the command applies it once (default: a new random key)',
  );
}

export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** `--limit` and `--cursor` of a paged list. */
export function withPageOptions(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed');
}

export const pageRequest = (opts: PageOptions): PageRequest => ({ limit: opts.limit, cursor: opts.cursor });
