import type { Command } from 'commander';
import type { FeePreview } from '@hostpay/client';
import { CLIENT_TOKEN_HELP, resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { callServer, merchantClient, withJsonDecimals } from '../merchant-api.js';
import { withJsonOption } from '../options.js';
import { printResult, type Io } from '../output.js';
import { renderPairs } from '../table.js';

interface FeesPreviewOptions extends CredentialFlags {
  merchant?: string;
  json?: boolean;
}

export function registerFeesPreview(program: Command, io: Io): void {
  const cmd = program
    .command('fees-preview')
    .description('the fee rule and the computed fee for a hosted checkout (GET /api/v1/cp/psp/hosted-pay/fees-preview)')
    .argument(
      '<amount>',
      'checkout amount: positive decimal, at most 18 fractional digits, e.g. 100 or 99.95 (sent exactly as written)',
    )
    .argument('<currency>', 'currency asked for, e.g. EUR or USDT (case-insensitive)')
    .option(
      '--merchant <id>',
      "act for this sub-merchant (platform keys an operator granted it; default: the key's merchant)",
    );
  withJsonOption(withCredentialOptions(cmd, { tokenHelp: CLIENT_TOKEN_HELP }))
    .addHelpText(
      'after',
      '\nThe server checks AMOUNT and CURRENCY: a bad one fails with INVALID_AMOUNT or INVALID_CURRENCY (exit 1).\nWith --json: the API result as it is, one JSON document, amounts as exact JSON number literals.',
    )
    .action(async (amount: string, currency: string, opts: FeesPreviewOptions) => {
      const creds = resolveCredentials(opts, io.env);
      const preview = await callServer(creds, () =>
        merchantClient(creds).previewFees({ amount, currency, merchantId: opts.merchant }),
      );
      printResult(io, opts.json, withJsonDecimals(preview), () => describeFees(preview));
    });
}

/** Every figure is the server's exact text; nothing is recomputed here. */
export function describeFees(p: FeePreview, ownSchedule = 'your own schedule'): string {
  const inFeeCurrency = (value: string) => `${value} ${p.currency}`;
  const converted =
    p.currency === p.originalCurrency
      ? 'same currency'
      : `${p.amount} ${p.originalCurrency} = ${inFeeCurrency(p.convertedAmount)} at 1 ${p.originalCurrency} = ${p.rate ?? '?'} ${p.currency}`;
  const charge = p.isPercentage ? `${p.value} % of the amount` : `fixed ${inFeeCurrency(p.value)}`;
  const tier = `from ${p.tier.fromAmount} ${p.originalCurrency}${p.tier.toAmount === null ? ' up' : ` to below ${p.tier.toAmount} ${p.originalCurrency}`}`;
  return renderPairs([
    ['amount', `${p.amount} ${p.originalCurrency}`],
    ['charged in', `${p.currency} (${converted})`],
    ['rule', `${charge}, at least ${inFeeCurrency(p.minValue)}, plus on-chain fee ${inFeeCurrency(p.onChainFee)}`],
    ['tier', `${tier} (${p.scheduleSource === 'merchant' ? ownSchedule : 'default schedule'})`],
    ['service fee', inFeeCurrency(p.serviceFee)],
    ['on-chain fee', inFeeCurrency(p.onChainFee)],
    ['fee', inFeeCurrency(p.fee)],
  ]);
}
