import { InvalidArgumentError, type Command } from 'commander';

/** Options every store command takes. */
export interface StoreOptions {
  dataDir?: string;
  json?: boolean;
}

export function withStoreOptions(cmd: Command): Command {
  return cmd
    .option(
      '--data-dir <dir>',
      'directory of the embedded store and master key (default: $HOSTPAY_DATA_DIR or ./.hostpay)',
    )
    .option('--json', 'print one JSON document instead of text');
}

export function withJsonOption(cmd: Command): Command {
  return cmd.option('--json', 'print one JSON document instead of text');
}

/** Commander arg parser for a whole number in [min, max]; a bad value is a usage error (exit 2). */
export function integerIn(min: number, max: number) {
  return (text: string): number => {
    if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return Number(text);
  };
}

/** Comma-separated list, blanks dropped: `--scopes wallets:read,fees:read`. */
export function commaList(text: string): string[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new InvalidArgumentError('must list at least one value, separated by commas');
  return items;
}
