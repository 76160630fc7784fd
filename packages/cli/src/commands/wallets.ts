import type { Command } from 'commander';
import type { Wallet } from '@hostpay/client';
import { decimalText, Decimal } from '@hostpay/protocol';
import { CLIENT_TOKEN_HELP, resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { callServer, merchantClient, withJsonDecimals } from '../merchant-api.js';
import { withJsonOption } from '../options.js';
import { listDocument, printResult, type Io } from '../output.js';
import { renderTable } from '../table.js';

interface WalletsOptions extends CredentialFlags {
  merchant?: string;
  json?: boolean;
}

export function registerWallets(program: Command, io: Io): void {
  const cmd = program
    .command('wallets')
    .description('list your wallets (GET /api/v1/cp/wallets/): asset, chain, balance, frozen, available, active')
    .option(
      '--merchant <id>',
      "act for this sub-merchant (platform keys an operator granted it; default: the key's merchant)",
    );
  withJsonOption(withCredentialOptions(cmd, { tokenHelp: CLIENT_TOKEN_HELP }))
    .addHelpText(
      'after',
      '\nAvailable = balance - frozen, computed exactly. With --json: {"items": [the wallets, as the API returns them], "nextCursor": null},\namounts as exact JSON number literals (read them with a lossless JSON parser).',
    )
    .action(async (opts: WalletsOptions) => {
      const creds = resolveCredentials(opts, io.env);
      const wallets = await callServer(creds, () => merchantClient(creds).listWallets({ merchantId: opts.merchant }));
      printResult(io, opts.json, withJsonDecimals(listDocument(wallets)), () => walletTable(wallets));
    });
}

/** Balances as the exact decimal text the server sent; `available` by decimal subtraction, never Number. */
export function walletTable(wallets: readonly Wallet[]): string {
  if (wallets.length === 0) return 'no wallets yet: an operator creates them (hostpay wallet create)';
  const rows = wallets.map((w) => [
    w.asset,
    w.chain.symbol,
    w.amount,
    w.freezeAmount,
    decimalText(new Decimal(w.amount).minus(w.freezeAmount)),
    w.active ? 'yes' : 'no',
  ]);
  return renderTable(
    [
      { header: 'ASSET' },
      { header: 'CHAIN' },
      { header: 'BALANCE', align: 'decimal' },
      { header: 'FROZEN', align: 'decimal' },
      { header: 'AVAILABLE', align: 'decimal' },
      { header: 'ACTIVE' },
    ],
    rows,
  );
}
