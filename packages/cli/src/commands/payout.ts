import { InvalidArgumentError, type Command } from 'commander';
import type { Destination, Payout, PayoutStatus } from '@hostpay/client';
import { withJsonDecimals } from '../merchant-api.js';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { integerIn } from '../options.js';
import { listDocument, moreLine, printResult, UsageError, type Io } from '../output.js';
import {
  DESTINATION_COLUMNS,
  PAYOUT_COLUMNS,
  describeDestination,
  describePayout,
  destinationRow,
  payoutRow,
} from '../payout-view.js';
import { renderTable } from '../table.js';
import { registerPayoutOperator } from './payout-operator.js';
import { registerPayoutStuck } from './payout-stuck.js';

export const PAYOUT_STATUSES: readonly PayoutStatus[] = [
  'pending_approval',
  'approved',
  'rejected',
  'canceled',
  'sent',
  'completed',
  'failed',
];

interface WriteFlags extends MerchantFlags {
  idempotencyKey?: string;
}

const IDEMPOTENCY_HELP = 'sent as Idempotency-Key, so repeating the command acts once (default: a random key per run)';

/** `--outcome completed|failed`. */
function outcome(text: string): 'completed' | 'failed' {
  if (text !== 'completed' && text !== 'failed') throw new InvalidArgumentError('must be completed or failed');
  return text;
}

/**
 * `hostpay payout …`: the merchant's payouts and address book through the merchant API (the
 * client), and the operators' side (approve, reject, sent, complete, fail, export; payout-operator.ts).
 */
export function registerPayout(program: Command, io: Io): void {
  const payout = program
    .command('payout')
    .description(
      'payouts: request, list, get, cancel, settle in a sandbox; the address book (destination); operators: review, approve, reject, sent, complete, fail, export',
    );
  const show = (opts: MerchantFlags, p: Payout, text: () => string = () => describePayout(p)) =>
    printResult(io, opts.json, withJsonDecimals(p), text);

  merchantCommand(
    payout
      .command('request')
      .description(
        'request a payout from a wallet to a destination of your address book (POST /api/v1/cp/payouts; needs the payouts:write scope)',
      )
      .argument(
        '<amount>',
        "what the destination receives, a positive decimal in the wallet's asset (the network fee comes on top)",
      )
      .requiredOption('--wallet <id>', "the wallet the money leaves (its asset and chain are the payout's)")
      .option(
        '--destination <id-or-address>',
        'a destination of the address book: its id (dst_...) or its address; it must be active',
      )
      .option('--reference <text>', 'your own reference, at most 64 characters')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  )
    .addHelpText(
      'after',
      '\nThe total (amount + network fee) is frozen in the wallet at once. The payout is approved when it is within\nthe auto-approve limit and the destination is active, else it waits for an operator (pending_approval).',
    )
    .action(async (amount: string, opts: WriteFlags & { wallet: string; destination?: string; reference?: string }) => {
      if (opts.destination === undefined)
        throw new UsageError('payout request needs --destination (a dst_... id or an active address)');
      const to = opts.destination.startsWith('dst_')
        ? { destinationId: opts.destination }
        : { destination: opts.destination };
      const p = await withClient(io, opts, (client) =>
        client.payouts.create(
          { walletId: opts.wallet, amount, ...to, reference: opts.reference },
          { idempotencyKey: opts.idempotencyKey, merchantId: opts.merchant },
        ),
      );
      show(
        opts,
        p,
        () => `requested payout ${p.id}: ${p.status}, ${p.total} ${p.asset} frozen\n\n${describePayout(p)}`,
      );
    });

  merchantCommand(
    payout
      .command('list')
      .description('list your payouts (GET /api/v1/cp/payouts)')
      .option('--status <status>', `only this status: ${PAYOUT_STATUSES.join(', ')}`)
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  )
    .addHelpText('after', '\nWith --json: {"items": [...], "nextCursor": ...}, amounts as exact JSON number literals.')
    .action(async (opts: MerchantFlags & { status?: string; limit?: number; cursor?: string }) => {
      if (opts.status !== undefined && !PAYOUT_STATUSES.includes(opts.status as PayoutStatus))
        throw new UsageError(
          `--status must be one of ${PAYOUT_STATUSES.join(', ')}, got ${JSON.stringify(opts.status)}`,
        );
      const filters = {
        status: opts.status as PayoutStatus | undefined,
        limit: opts.limit,
        cursor: opts.cursor,
        merchantId: opts.merchant,
      };
      const page = await withClient(io, opts, (client) => client.payouts.list(filters));
      printResult(io, opts.json, withJsonDecimals(listDocument(page.items, page.nextCursor)), () => {
        if (page.items.length === 0)
          return 'no payouts: request one with hostpay payout request AMOUNT --wallet ID --destination DST';
        return renderTable(PAYOUT_COLUMNS, page.items.map(payoutRow)) + moreLine(page.nextCursor);
      });
    });

  merchantCommand(
    payout
      .command('get')
      .description('show one payout: amounts, destination, transaction, timeline')
      .argument('<payout-id>', 'e.g. po_...'),
  ).action(async (id: string, opts: MerchantFlags) =>
    show(opts, await withClient(io, opts, (client) => client.payouts.get(id, { merchantId: opts.merchant }))),
  );

  merchantCommand(
    payout
      .command('cancel')
      .description(
        'cancel a payout still pending_approval or approved: its total is unfrozen (PAYOUT_STATE_CONFLICT once sent)',
      )
      .argument('<payout-id>', 'e.g. po_...')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  ).action(async (id: string, opts: WriteFlags) => {
    const p = await withClient(io, opts, (client) =>
      client.payouts.cancel(id, { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey }),
    );
    show(opts, p, () => `canceled payout ${p.id}: ${p.total} ${p.asset} unfrozen`);
  });

  merchantCommand(
    payout
      .command('simulate')
      .description('sandbox only: move an approved payout through sent to completed or failed (POST …/{id}/simulate)')
      .argument('<payout-id>', 'e.g. po_...')
      .option('--outcome <outcome>', 'completed (default) or failed', outcome, 'completed' as const),
  ).action(async (id: string, opts: MerchantFlags & { outcome: 'completed' | 'failed' }) => {
    const p = await withClient(io, opts, (client) =>
      client.payouts.simulate(id, { outcome: opts.outcome }, { merchantId: opts.merchant }),
    );
    show(opts, p, () => `payout ${p.id} is ${p.status}\n\n${describePayout(p)}`);
  });

  registerPayoutOperator(payout, registerDestination(payout, io), io);
  registerPayoutStuck(payout, io);
}

/** `hostpay payout destination add|list|revoke` (merchant) and `activate` (operator, in payout-operator.ts). */
function registerDestination(payout: Command, io: Io): Command {
  const destination = payout
    .command('destination')
    .description('your payout address book: add, list, revoke; operators: activate');
  const show = (opts: MerchantFlags, d: Destination, line: string) =>
    printResult(io, opts.json, d, () => `${line}\n\n${describeDestination(d)}`);

  merchantCommand(
    destination
      .command('add')
      .description(
        'add an address to the address book; it cools off before payouts can use it (POST /api/v1/cp/payout-destinations)',
      )
      .argument('<chain>', 'the chain symbol, e.g. TRON, ETH, BTC')
      .argument('<address>', 'an address valid on that chain (EVM: a mixed-case address must pass EIP-55)')
      .option('--label <text>', 'your name for it')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  ).action(async (chain: string, address: string, opts: WriteFlags & { label?: string }) => {
    const d = await withClient(io, opts, (client) =>
      client.payoutDestinations.create(
        { chain, address, label: opts.label },
        { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey },
      ),
    );
    show(
      opts,
      d,
      d.status === 'active'
        ? `added destination ${d.id}: active`
        : `added destination ${d.id}: ${d.status} until ${d.activeFrom}`,
    );
  });

  merchantCommand(
    destination
      .command('list')
      .description('list the address book (GET /api/v1/cp/payout-destinations)')
      .option('--limit <n>', 'at most this many, 1 to 200 (default 50)', integerIn(1, 200))
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
  ).action(async (opts: MerchantFlags & { limit?: number; cursor?: string }) => {
    const page = await withClient(io, opts, (client) =>
      client.payoutDestinations.list({ limit: opts.limit, cursor: opts.cursor, merchantId: opts.merchant }),
    );
    printResult(io, opts.json, listDocument(page.items, page.nextCursor), () => {
      if (page.items.length === 0) return 'no destinations: add one with hostpay payout destination add CHAIN ADDRESS';
      return renderTable(DESTINATION_COLUMNS, page.items.map(destinationRow)) + moreLine(page.nextCursor);
    });
  });

  merchantCommand(
    destination
      .command('revoke')
      .description('revoke a destination: no payout can use it afterwards (DELETE /api/v1/cp/payout-destinations/{id})')
      .argument('<destination-id>', 'e.g. dst_...')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  ).action(async (id: string, opts: WriteFlags) => {
    const d = await withClient(io, opts, (client) =>
      client.payoutDestinations.revoke(id, { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey }),
    );
    show(opts, d, `revoked destination ${d.id}`);
  });
  return destination;
}
