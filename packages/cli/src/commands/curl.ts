import type { Command } from 'commander';
import { resolveCredentials, urlFor, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { notice, printResult, type Io } from '../output.js';
import { withJsonOption } from '../options.js';
import { shellCommand } from '../shell-quote.js';
import { authHeaders } from '../signed-request.js';

/** Prints a curl command; the caller runs it (`| sh`), so nothing here touches the network. */
export function registerCurl(program: Command, io: Io): void {
  const cmd = program
    .command('curl')
    .description('print a ready curl command for a signed GET (fresh timestamp, signature, bearer token)')
    .argument(
      '<path>',
      "path and query, e.g. '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT' (or a full URL)",
    );
  withJsonOption(
    withCredentialOptions(cmd, { tokenHelp: 'bearer token (default: $HOSTPAY_TOKEN; get one with hostpay token)' }),
  )
    .addHelpText(
      'after',
      '\nThe timestamp is valid for about a minute; run the command at once:\n  npx hostpay curl /api/v1/cp/wallets | sh',
    )
    .action((path: string, opts: CredentialFlags & { json?: boolean }) => {
      const creds = resolveCredentials(opts, io.env);
      if (creds.token === undefined)
        notice(
          io,
          'warning: no bearer token (--token or HOSTPAY_TOKEN); the merchant endpoints will answer 401 MISSING_HEADER',
        );
      const url = /^https?:\/\//i.test(path) ? path : urlFor(creds.baseUrl, path);
      const headers = authHeaders(creds, '', Date.now(), { method: 'GET', url });
      const command = shellCommand([
        'curl',
        '-sS',
        url,
        ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      ]);
      printResult(io, opts.json, { command, method: 'GET', url, headers }, () => command);
    });
}
