import type { Command } from 'commander';
import { openLocalBackend, requireRotationKeys } from '../admin/local-backend.js';
import { printAdmin } from '../admin/print.js';
import { configFrom } from '../context.js';
import { withStoreOptions, type StoreOptions } from '../options.js';
import type { Io } from '../output.js';

const PROCEDURE = `
Zero-downtime rotation (no secret is ever unreadable):
  1. Deploy every instance with the NEW key as HOSTPAY_MASTER_KEY and the OLD key as
     HOSTPAY_MASTER_KEY_PREVIOUS. Each instance then opens secrets sealed under either key.
  2. Run, with the same two variables and the store's settings (HOSTPAY_DATABASE_URL or --data-dir):
       hostpay master-key rotate
     Every API secret and server secret is re-sealed under the new key, one row at a time, while
     the servers keep answering. Running it again is harmless: it reports 0 re-sealed.
  3. Remove HOSTPAY_MASTER_KEY_PREVIOUS from every instance and retire the old key.
It runs on the store directly, never through --admin-url: it needs the keys themselves.`;

export function registerMasterKey(program: Command, io: Io): void {
  const masterKey = program.command('master-key').description('the master key that encrypts API secrets at rest');

  withStoreOptions(
    masterKey
      .command('rotate')
      .description(
        're-encrypt every secret under HOSTPAY_MASTER_KEY; HOSTPAY_MASTER_KEY_PREVIOUS holds the old key(s)',
      ),
  )
    .addHelpText('after', PROCEDURE)
    .action(async (opts: StoreOptions) => {
      // Checked before the store is opened: opening it with the new key alone would already fail
      // on the first secret still sealed under the old one.
      requireRotationKeys(await configFrom(io, { dataDir: opts.dataDir }));
      // The local store always, even with HOSTPAY_ADMIN_URL set, and never a generated key.
      const backend = await openLocalBackend(io, { dataDir: opts.dataDir, allowNewMasterKey: false });
      try {
        const result = await backend.masterKey.rotate();
        printAdmin(
          io,
          opts.json,
          result,
          () =>
            `re-sealed ${result.resealed} secret${result.resealed === 1 ? '' : 's'} under the new master key (${result.alreadyCurrent} already under it)\n` +
            'next: remove HOSTPAY_MASTER_KEY_PREVIOUS from every instance once they all run with the new HOSTPAY_MASTER_KEY',
        );
      } finally {
        await backend.close();
      }
    });
}
