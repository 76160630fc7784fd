import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList } from '../admin/print.js';
import type { Io } from '../output.js';

/** Platform keys: which other merchants a key may act for (`merchantId` in merchant requests). */
export function registerKeyGrants(key: Command, io: Io): void {
  withWriteOptions(
    key.command('grant').description('let a platform key act for another merchant (merchantId query parameter)'),
  )
    .argument('<key-id>', 'the platform API key, e.g. hp_...')
    .argument('<merchant-id>', 'the sub-merchant it may act for, e.g. mer_...')
    .action(async (keyId: string, merchantId: string, opts: WriteOptions) => {
      const change = await withBackend(io, opts, (b) => b.keys.grant(keyId, merchantId, opts));
      printAdmin(io, opts.json, change, () => `API key ${keyId} may now act for merchant ${merchantId}`);
    });

  withWriteOptions(key.command('ungrant').description('withdraw a grant: the key can no longer act for that merchant'))
    .argument('<key-id>', 'the platform API key, e.g. hp_...')
    .argument('<merchant-id>', 'the sub-merchant, e.g. mer_...')
    .action(async (keyId: string, merchantId: string, opts: WriteOptions) => {
      const change = await withBackend(io, opts, (b) => b.keys.ungrant(keyId, merchantId, opts));
      printAdmin(io, opts.json, change, () => `API key ${keyId} can no longer act for merchant ${merchantId}`);
    });

  withAdminOptions(key.command('grants').description('the merchants a platform key may act for'))
    .argument('<key-id>', 'the API key, e.g. hp_...')
    .action(async (keyId: string, opts: AdminOptions) => {
      const grants = await withBackend(io, opts, (b) => b.keys.grants(keyId));
      printList(io, opts.json, grants, {
        columns: [{ header: 'MERCHANT' }, { header: 'GRANTED' }],
        row: (g) => [g.merchantId, g.createdAt],
        empty: `API key ${keyId} acts only for its own merchant (no grants)`,
      });
    });
}
