import { readFileSync } from 'node:fs';
import { Command, Help } from 'commander';
import { registerCurl } from './commands/curl.js';
import { registerFee } from './commands/fee.js';
import { registerFeesPreview } from './commands/fees-preview.js';
import { registerKey } from './commands/key.js';
import { registerLogin } from './commands/login.js';
import { registerMerchant } from './commands/merchant.js';
import { registerRate } from './commands/rate.js';
import { registerServe } from './commands/serve.js';
import { registerTime } from './commands/time.js';
import { registerToken } from './commands/token.js';
import { registerWallet } from './commands/wallet.js';
import { registerWallets } from './commands/wallets.js';
import { describeError, type Io } from './output.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The whole command tree. Commander never exits or prints errors itself (exitOverride, silent
 * outputError): `run` turns whatever it throws into one stderr line and an exit code. Settings
 * are made before any subcommand is added, because subcommands copy them when created.
 */
export function buildProgram(io: Io, onErrorHelp: (text: string) => void = () => {}): Command {
  const program = new Command('hostpay')
    .description('hostpay: run the server, manage merchants, keys, wallets and fees; as a merchant, list wallets, preview fees, sign requests')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: onErrorHelp, outputError: () => {} })
    .configureHelp({ visibleOptions: sharedOptionsLast })
    .addHelpText('after', '\nEvery command has --help. Store commands use --data-dir (default $HOSTPAY_DATA_DIR or ./.hostpay).\nMerchant commands take --api-key/--api-secret/--base-url, else HOSTPAY_* variables, else a profile saved by hostpay login.');
  registerServe(program, io);
  registerMerchant(program, io);
  registerKey(program, io);
  registerWallet(program, io);
  registerFee(program, io);
  registerRate(program, io);
  registerLogin(program, io);
  registerWallets(program, io);
  registerFeesPreview(program, io);
  registerTime(program, io);
  registerToken(program, io);
  registerCurl(program, io);
  return program;
}

const SHARED_OPTIONS = new Set(['--data-dir', '--json', '--help']);

/** Help lists a command's own options first; --data-dir, --json and --help, the same everywhere, after them. */
function sharedOptionsLast(this: Help, cmd: Command) {
  const all = Help.prototype.visibleOptions.call(this, cmd);
  const shared = (o: (typeof all)[number]) => o.long !== undefined && SHARED_OPTIONS.has(o.long);
  return [...all.filter((o) => !shared(o)), ...all.filter(shared)];
}

/** Runs one command line (arguments after `hostpay`) and returns the exit code; never exits. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let errorHelp = '';
  const program = buildProgram(io, (text) => (errorHelp += text));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    const { line, exitCode } = describeError(err, errorHelp);
    if (line !== null) io.stderr(line + '\n');
    return exitCode;
  }
}
