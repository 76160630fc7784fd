import type { Command } from 'commander';
import type { PayoutChain } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, table } from '../admin/print.js';
import type { Io } from '../output.js';
import { renderPairs } from '../table.js';

const HELP = `
A payout the hot wallet sent is decided by the chain. When its transaction is stuck (not mined,
or forgotten by the node: not pooled, not mined, its nonce unused, and refused when sent again):
  hostpay payout transactions ID            what the node and the store know, and what you can do
  hostpay payout rebroadcast ID             send the same signed bytes to the node again, now
  hostpay payout cancel-by-replacement ID   replace it with a zero-value transfer to the hot wallet
                                            itself (same nonce, higher fee): the payout fails and
                                            its total is unfrozen once that is mined to the depth;
                                            if the payout's own transaction is mined first, it
                                            completes and the cancel is lost
Both actions are audited. See docs/payouts.md, "When a hot-wallet transaction is stuck".`;

const CANCEL = {
  requested: 'asked for: the sender signs it at its next round',
  sent: 'in flight: the payout fails once it is mined to the depth',
  canceled: 'mined: the payout failed, its total unfrozen',
  lost: "lost: the payout's own transaction was mined, it completed",
} as const;

/** The state of a payout's hot-wallet transaction, its cancel and the actions, then every transaction. */
export function describeChain(c: PayoutChain): string {
  if (c.state === null)
    return `${renderPairs([
      ['payout', `${c.payoutId} (${c.payoutStatus})`],
      ['chain', c.chain],
    ])}\n\n${c.advice}`;
  const pairs: [string, string][] = [
    ['payout', `${c.payoutId} (${c.payoutStatus})`],
    ['chain', `${c.chain}, hot wallet ${c.wallet}`],
    ['nonce', String(c.nonce)],
    ['transaction', c.txHash],
    ['state', c.state.toUpperCase()],
  ];
  if (c.forgotten !== null) pairs.push(['node answer', `${c.forgotten.nodeAnswer} (since ${c.forgotten.since})`]);
  if (c.cancel !== null)
    pairs.push([
      'cancel',
      `${CANCEL[c.cancel.status]} (by ${c.cancel.requestedBy}, ${c.cancel.requestedAt}${c.cancel.txHash === null ? '' : `, ${c.cancel.txHash}`})`,
    ]);
  pairs.push(['you can', c.actions.length === 0 ? '-' : c.actions.map((a) => a.replaceAll('_', '-')).join(', ')]);
  const txs = table(c.transactions, {
    columns: [
      { header: 'HASH' },
      { header: 'KIND' },
      { header: 'STATUS' },
      { header: 'MAX FEE (WEI)' },
      { header: 'BLOCK' },
    ],
    row: (t) => [t.txHash, t.kind, t.status, t.maxFeePerGas, t.blockNumber === null ? '-' : String(t.blockNumber)],
    empty: '',
  });
  return `${renderPairs(pairs)}\n\n${c.advice}\n\n${txs}`;
}

/** `hostpay payout transactions|rebroadcast|cancel-by-replacement`: the way out of a stuck hot-wallet payout. */
export function registerPayoutStuck(payout: Command, io: Io): void {
  withAdminOptions(
    payout
      .command('transactions')
      .description("operators: a hot-wallet payout's transactions, whether the node forgot them, and what you can do")
      .argument('<payout-id>', 'e.g. po_...'),
  )
    .addHelpText('after', HELP)
    .action(async (id: string, opts: AdminOptions) => {
      const c = await withBackend(io, opts, (b) => b.payouts.chain(id));
      printAdmin(io, opts.json, c, () => describeChain(c));
    });

  withWriteOptions(
    payout
      .command('rebroadcast')
      .description("operators: send a hot-wallet payout's stored transaction to the node again, now (audited)")
      .argument('<payout-id>', 'e.g. po_...'),
  )
    .addHelpText('after', HELP)
    .action(async (id: string, opts: WriteOptions) => {
      const c = await withBackend(io, opts, (b) => b.payouts.rebroadcast(id, opts));
      printAdmin(io, opts.json, c, () =>
        c.forgotten === null
          ? `the node took transaction ${c.txHash} of payout ${c.payoutId} (${c.state})`
          : `the node refused transaction ${c.txHash} of payout ${c.payoutId} again: ${orDash(c.forgotten.nodeAnswer)}\n\n${c.advice}`,
      );
    });

  withWriteOptions(
    payout
      .command('cancel-by-replacement')
      .description(
        'operators: replace a sent hot-wallet payout’s unmined transaction with a zero-value one to the hot wallet (audited)',
      )
      .argument('<payout-id>', 'e.g. po_...'),
  )
    .addHelpText('after', HELP)
    .action(async (id: string, opts: WriteOptions) => {
      const c = await withBackend(io, opts, (b) => b.payouts.cancelByReplacement(id, opts));
      printAdmin(
        io,
        opts.json,
        c,
        () =>
          `cancel by replacement of payout ${c.payoutId} (nonce ${c.nonce}): ${c.cancel === null ? '-' : CANCEL[c.cancel.status]}\nfollow it with: hostpay payout transactions ${c.payoutId}`,
      );
    });
}
