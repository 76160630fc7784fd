import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  type AdminOptions,
  type PageOptions,
} from '../admin/options.js';
import { orDash, printPage } from '../admin/print.js';
import type { Io } from '../output.js';

export function registerAddress(program: Command, io: Io): void {
  const address = program.command('address').description('deposit addresses handed out to checkouts');

  withPageOptions(
    withAdminOptions(
      address.command('list').description('list deposit addresses, oldest first, with their key, index and checkout'),
    ),
  )
    .option('--chain <symbol>', 'only addresses on this chain')
    .option('--checkout <id>', "only this checkout's addresses")
    .action(async (opts: AdminOptions & PageOptions & { chain?: string; checkout?: string }) => {
      const page = await withBackend(io, opts, (b) =>
        b.catalog.addresses.list({ ...pageRequest(opts), chain: opts.chain, checkoutId: opts.checkout }),
      );
      printPage(io, opts.json, page, {
        columns: [
          { header: 'ADDRESS' },
          { header: 'CHAIN' },
          { header: 'INDEX' },
          { header: 'KEY' },
          { header: 'CHECKOUT' },
          { header: 'OPTION' },
          { header: 'CREATED' },
        ],
        row: (a) => [
          a.address,
          a.chain,
          String(a.index),
          a.accountKeyId,
          orDash(a.checkoutId),
          orDash(a.optionId),
          a.createdAt,
        ],
        empty: 'no deposit addresses yet: checkouts take one per payment option from the chain xpub',
      });
    });
}
