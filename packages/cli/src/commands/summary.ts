import type { Command } from 'commander';
import type { Summary } from '@hostpay/client';
import { withJsonDecimals } from '../merchant-api.js';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { printResult, type Io } from '../output.js';
import { renderTable } from '../table.js';

/** `hostpay summary`: what the dashboard's home shows (GET /api/v1/cp/summary). */
export function registerSummary(program: Command, io: Io): void {
  merchantCommand(
    program
      .command('summary')
      .description(
        'balances, volume settled today and this month (UTC) per currency, and checkouts needing attention (GET /api/v1/cp/summary)',
      ),
  )
    .addHelpText(
      'after',
      '\nNeeding attention: needs_review, underpaid, processing for over an hour, and settled overpaid in the last 30 days.\nWith --json: the summary as the API returns it, amounts as exact JSON number literals.',
    )
    .action(async (opts: MerchantFlags) => {
      const summary = await withClient(io, opts, (c) => c.summary({ merchantId: opts.merchant }));
      printResult(io, opts.json, withJsonDecimals(summary), () => summaryText(summary));
    });
}

/** Three small tables; amounts are the exact decimal text the server sent. */
export function summaryText(s: Summary): string {
  const volume = (rows: Summary['settled']['today']) =>
    rows.length === 0
      ? 'nothing settled'
      : renderTable(
          [{ header: 'CURRENCY' }, { header: 'AMOUNT', align: 'decimal' }, { header: 'CHECKOUTS', align: 'decimal' }],
          rows.map((v) => [v.currency, v.amount, String(v.count)]),
        );
  const balances =
    s.balances.length === 0
      ? 'no wallets yet'
      : renderTable(
          [
            { header: 'ASSET' },
            { header: 'CHAIN' },
            { header: 'BALANCE', align: 'decimal' },
            { header: 'FROZEN', align: 'decimal' },
          ],
          s.balances.map((b) => [b.asset, b.chain, b.balance, b.freezeAmount]),
        );
  const attention =
    s.attention.length === 0
      ? 'no checkout needs attention'
      : renderTable(
          [
            { header: 'CHECKOUT' },
            { header: 'STATUS' },
            { header: 'AMOUNT', align: 'decimal' },
            { header: 'CURRENCY' },
            { header: 'UPDATED' },
          ],
          s.attention.map((c) => [
            c.id,
            c.reason === null ? c.status : `${c.status} (${c.reason})`,
            c.amount,
            c.currency,
            c.updatedAt,
          ]),
        );
  return [
    'Balances',
    balances,
    '',
    `Settled today (since ${s.settled.todayFrom})`,
    volume(s.settled.today),
    '',
    `Settled this month (since ${s.settled.monthFrom})`,
    volume(s.settled.month),
    '',
    'Needing attention',
    attention,
  ].join('\n');
}
