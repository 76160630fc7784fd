import { readFileSync } from 'node:fs';
import { Command, Help } from 'commander';
import { writeExactJson } from '@hostpay/protocol';
import { registerAddress } from './commands/address.js';
import { registerAsset } from './commands/asset.js';
import { registerAudit } from './commands/audit.js';
import { registerChain } from './commands/chain.js';
import { registerCheckout } from './commands/checkout.js';
import { registerCompletion } from './commands/completion.js';
import { registerCurl } from './commands/curl.js';
import { registerEvents } from './commands/events.js';
import { registerListen } from './commands/listen.js';
import { registerTrigger } from './commands/trigger.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerFee } from './commands/fee.js';
import { registerFeesPreview } from './commands/fees-preview.js';
import { registerInit } from './commands/init.js';
import { registerInvoice } from './commands/invoice.js';
import { registerKey } from './commands/key.js';
import { registerLink } from './commands/link.js';
import { registerSettings } from './commands/settings.js';
import { registerLogin } from './commands/login.js';
import { registerMasterKey } from './commands/master-key.js';
import { registerMerchant } from './commands/merchant.js';
import { registerMigrate } from './commands/migrate.js';
import { registerPayout } from './commands/payout.js';
import { registerNetwork } from './commands/network.js';
import { registerRate } from './commands/rate.js';
import { registerReport } from './commands/report.js';
import { registerServe } from './commands/serve.js';
import { registerSettlement } from './commands/settlement.js';
import { registerTime } from './commands/time.js';
import { registerToken } from './commands/token.js';
import { registerTransfer } from './commands/transfer.js';
import { registerWallet } from './commands/wallet.js';
import { registerSummary } from './commands/summary.js';
import { registerWallets } from './commands/wallets.js';
import { describeError, type Io } from './output.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

type Register = (program: Command, io: Io) => void;

/**
 * Every top-level command and what registers it, in the order help lists them. `run` registers
 * only the one a command line names (`hostpay serve …`): building the whole tree took ~30 ms of
 * every start on a slow machine, for commands the line does not use (docs/benchmarks.md).
 * `program.test.ts` holds the names to what each register function adds.
 */
export const COMMANDS: readonly { names: readonly string[]; register: Register }[] = [
  { names: ['serve'], register: registerServe },
  { names: ['init'], register: registerInit },
  { names: ['merchant'], register: registerMerchant },
  { names: ['key'], register: registerKey },
  { names: ['wallet'], register: registerWallet },
  { names: ['asset'], register: registerAsset },
  { names: ['chain'], register: registerChain },
  { names: ['network'], register: registerNetwork },
  { names: ['address'], register: registerAddress },
  { names: ['fee'], register: registerFee },
  { names: ['settlement'], register: registerSettlement },
  { names: ['rate', 'rates'], register: registerRate },
  { names: ['transfer'], register: registerTransfer },
  { names: ['audit'], register: registerAudit },
  { names: ['master-key'], register: registerMasterKey },
  { names: ['migrate'], register: registerMigrate },
  { names: ['login', 'logout'], register: registerLogin },
  { names: ['wallets'], register: registerWallets },
  { names: ['summary'], register: registerSummary },
  { names: ['report'], register: registerReport },
  { names: ['fees-preview'], register: registerFeesPreview },
  { names: ['checkout'], register: registerCheckout },
  { names: ['payout'], register: registerPayout },
  { names: ['link'], register: registerLink },
  { names: ['invoice'], register: registerInvoice },
  { names: ['settings'], register: registerSettings },
  { names: ['time'], register: registerTime },
  { names: ['token'], register: registerToken },
  { names: ['curl'], register: registerCurl },
  { names: ['events'], register: registerEvents },
  { names: ['webhooks'], register: registerWebhooks },
  { names: ['listen'], register: registerListen },
  { names: ['trigger'], register: registerTrigger },
  { names: ['completion'], register: registerCompletion },
];

/**
 * The whole command tree, or with `only` the program with that one entry of COMMANDS. Commander
 * never exits or prints errors itself (exitOverride, silent outputError): `run` turns whatever it
 * throws into one stderr line and an exit code. Settings are made before any subcommand is added,
 * because subcommands copy them when created.
 */
export function buildProgram(
  io: Io,
  onErrorHelp: (text: string) => void = () => {},
  only?: (typeof COMMANDS)[number],
): Command {
  const program = new Command('hostpay')
    .description(
      'hostpay: run the server, manage merchants, keys, wallets, fees and transfers; as a merchant, create checkouts, payment links and invoices, list wallets, preview fees, sign requests',
    )
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: onErrorHelp, outputError: () => {} })
    .configureHelp({ visibleOptions: sharedOptionsLast })
    .addHelpText(
      'after',
      [
        '',
        'Every command has --help. Operator commands act on the local store (--data-dir, default $HOSTPAY_DATA_DIR',
        "or ./.hostpay), or on a server's admin API with --admin-url (or $HOSTPAY_ADMIN_URL) and $HOSTPAY_ADMIN_TOKEN.",
        'Merchant commands take --api-key/--api-secret/--base-url, else HOSTPAY_* variables, else a profile saved by hostpay login.',
      ].join('\n'),
    );
  for (const { register } of only === undefined ? COMMANDS : [only]) register(program, io);
  return program;
}

/** Options many commands share, in the order help lists them: after each command's own options. */
const SHARED_OPTIONS = ['--limit', '--cursor', '--admin-url', '--data-dir', '--idempotency-key', '--json', '--help'];

/** Help lists a command's own options first, then the shared ones (--admin-url, --data-dir, …) in one fixed order. */
function sharedOptionsLast(this: Help, cmd: Command) {
  const all = Help.prototype.visibleOptions.call(this, cmd);
  const rank = (o: (typeof all)[number]) => (o.long === undefined ? -1 : SHARED_OPTIONS.indexOf(o.long));
  return [...all.filter((o) => rank(o) === -1), ...all.filter((o) => rank(o) !== -1).sort((a, b) => rank(a) - rank(b))];
}

/**
 * Runs one command line (arguments after `hostpay`) and returns the exit code; never exits. A
 * failure is one line on stderr; with `--json` its envelope is also the one document on stdout,
 * for the script that asked for JSON (a usage error included, before any command ran).
 */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let errorHelp = '';
  const program = buildProgram(io, (text) => (errorHelp += text), commandOf(argv));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    const { line, exitCode, envelope } = describeError(err, errorHelp);
    if (line !== null) io.stderr(line + '\n');
    if (envelope !== null && asksForJson(argv)) io.stdout(writeExactJson(envelope) + '\n');
    return exitCode;
  }
}

/**
 * The entry of COMMANDS the line names as its command, when that is all it needs: not `help`
 * (it lists every command), `completion` (it walks the whole tree) or an unknown word (commander
 * suggests the nearest command name).
 */
function commandOf(argv: readonly string[]): (typeof COMMANDS)[number] | undefined {
  const first = argv[0];
  if (first === undefined || first === 'completion') return undefined;
  return COMMANDS.find((c) => c.names.includes(first));
}

/** `--json` among the options (not after `--`, where it would be an argument). */
function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
