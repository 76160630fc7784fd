import { readFileSync, statSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { HotWallet } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin } from '../admin/print.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';

interface SetOptions extends WriteOptions {
  privateKeyFile?: string;
  privateKeyEnv?: string;
  generate?: boolean;
}

const HELP = `
The hot wallet signs the approved payouts of an EVM chain by itself (the evm-hot-wallet sender,
through the node of the chain's watch). Give its key with --private-key-file (a file holding the
64 hex digits, 0x optional; "-" reads standard input) or --private-key-env NAME, or let hostpay
make one with --generate. There is no --private-key option on purpose: a key typed on the command
line stays in the shell history and shows in every process list (ps, /proc/<pid>/cmdline) while
the command runs. The key is stored sealed under the master key and never shown again: keep your
own copy (or use --generate and fund only what the payouts need). Only the address is printed.
See docs/payouts.md, "The evm-hot-wallet sender".`;

function readKey(io: Io, opts: SetOptions): string | undefined {
  const given = [opts.privateKeyFile !== undefined, opts.privateKeyEnv !== undefined, opts.generate === true];
  if (given.filter(Boolean).length !== 1)
    throw new UsageError('give exactly one of --private-key-file FILE, --private-key-env NAME or --generate');
  if (opts.generate) return undefined;
  if (opts.privateKeyEnv !== undefined) {
    const key = io.env[opts.privateKeyEnv];
    if (key === undefined || key.trim() === '')
      throw new UsageError(`--private-key-env ${opts.privateKeyEnv}: that environment variable is not set`);
    return key.trim();
  }
  const file = opts.privateKeyFile!;
  let text: string;
  try {
    if (file !== '-' && (statSync(file).mode & 0o077) !== 0)
      io.stderr(`hostpay: warning: ${file} can be read by other users of this machine (chmod 600 it)\n`);
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new UsageError(`--private-key-file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
  }
  // Never quoted back: whatever the file holds may be a key.
  if (text.trim() === '') throw new UsageError(`--private-key-file ${file} is empty`);
  return text.trim();
}

function describe(h: HotWallet): string {
  return renderPairs([
    ['chain', h.chain],
    ['address', h.address],
    ['next nonce', h.nextNonce === null ? '-' : String(h.nextNonce)],
    ['in flight', String(h.openTransactions)],
    [
      'forgotten',
      h.forgottenTransactions === 0
        ? '0'
        : `${h.forgottenTransactions}: the node refused them again (hostpay payout transactions ID)`,
    ],
    ['sender', orDash(h.senderHolder)],
    ['last error', h.lastError === null ? '-' : `${h.lastError} (${orDash(h.lastErrorAt)})`],
    ['set', h.createdAt],
  ]);
}

/** `hostpay chain set-hot-wallet|show-hot-wallet|remove-hot-wallet`: the key that sends payouts on an EVM chain. */
export function registerChainHotWallet(chain: Command, io: Io): void {
  withWriteOptions(
    chain
      .command('set-hot-wallet')
      .description("set or generate an EVM chain's hot wallet key (prints the address only)"),
  )
    .argument('<chain>', 'EVM chain symbol, e.g. ETH')
    .option('--private-key-file <file>', 'read the private key from this file ("-": standard input)')
    .option('--private-key-env <name>', 'read the private key from this environment variable')
    .addOption(new Option('--generate', 'let hostpay generate the key').conflicts(['privateKeyFile', 'privateKeyEnv']))
    .addHelpText('after', HELP)
    .action(async (symbol: string, opts: SetOptions) => {
      const key = readKey(io, opts);
      const set = await withBackend(io, opts, (b) => b.catalog.chains.setHotWallet(symbol, key, opts));
      printAdmin(
        io,
        opts.json,
        set,
        () =>
          `chain ${set.chain} sends payouts from ${set.address}: fund it with the coin for gas and the assets it pays`,
      );
    });

  withAdminOptions(chain.command('show-hot-wallet').description("show a chain's hot wallet: address and sender status"))
    .argument('<chain>', 'chain symbol, e.g. ETH')
    .action(async (symbol: string, opts: AdminOptions) => {
      const h = await withBackend(io, opts, (b) => b.catalog.chains.getHotWallet(symbol));
      printAdmin(io, opts.json, h, () => describe(h));
    });

  withWriteOptions(
    chain
      .command('remove-hot-wallet')
      .description("remove a chain's hot wallet (refused while transactions are in flight)"),
  )
    .argument('<chain>', 'chain symbol, e.g. ETH')
    .action(async (symbol: string, opts: WriteOptions) => {
      const h = await withBackend(io, opts, (b) => b.catalog.chains.removeHotWallet(symbol, opts));
      printAdmin(io, opts.json, h, () => `chain ${h.chain} has no hot wallet any more (it was ${h.address})`);
    });
}
