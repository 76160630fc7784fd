import type { Command } from 'commander';
import { withServices } from '../context.js';
import { printResult, type Io } from '../output.js';
import { withStoreOptions, type StoreOptions } from '../options.js';

export function registerMerchant(program: Command, io: Io): void {
  const merchant = program.command('merchant').description('manage merchants');

  withStoreOptions(merchant.command('create').description('create a merchant'))
    .requiredOption('--name <name>', 'display name, 1 to 200 characters')
    .action(async (opts: StoreOptions & { name: string }) => {
      const created = await withServices(io, opts.dataDir, (s, audit) => s.admin.createMerchant(opts.name, audit));
      printResult(io, opts.json, created, () => `created merchant ${created.id} (${created.name})\nnext: hostpay key create --merchant ${created.id}`);
    });
}
