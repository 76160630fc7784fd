import { Option, type Command } from 'commander';
import type { Merchant, MerchantStatus } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  withWriteOptions,
  type AdminOptions,
  type PageOptions,
  type WriteOptions,
} from '../admin/options.js';
import { printAdmin, printPage } from '../admin/print.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';

export function registerMerchant(program: Command, io: Io): void {
  const merchant = program.command('merchant').description('manage merchants');
  const show = (opts: AdminOptions, m: Merchant, line: string) => printAdmin(io, opts.json, m, () => line);

  withWriteOptions(merchant.command('create').description('create a merchant'))
    .requiredOption('--name <name>', 'display name, 1 to 200 characters')
    .action(async (opts: WriteOptions & { name: string }) => {
      const created = await withBackend(io, opts, (b) => b.merchants.create(opts.name, opts));
      show(
        opts,
        created,
        `created merchant ${created.id} (${created.name})\nnext: hostpay key create --merchant ${created.id}`,
      );
    });

  withPageOptions(withAdminOptions(merchant.command('list').description('list merchants, oldest first')))
    .addOption(new Option('--status <status>', 'only merchants with this status').choices(['active', 'suspended']))
    .action(async (opts: AdminOptions & PageOptions & { status?: MerchantStatus }) => {
      const page = await withBackend(io, opts, (b) => b.merchants.list({ ...pageRequest(opts), status: opts.status }));
      printPage(io, opts.json, page, {
        columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'STATUS' }, { header: 'CREATED' }],
        row: (m) => [m.id, m.name, m.status, m.createdAt],
        empty: 'no merchants: create one with hostpay merchant create --name NAME',
      });
    });

  withAdminOptions(merchant.command('get').description('show one merchant'))
    .argument('<merchant-id>', 'e.g. mer_...')
    .action(async (id: string, opts: AdminOptions) => {
      const m = await withBackend(io, opts, (b) => b.merchants.get(id));
      show(
        opts,
        m,
        renderPairs([
          ['id', m.id],
          ['name', m.name],
          ['status', m.status],
          ['underpayment tolerance', `${m.underpaymentTolerancePercent} %`],
          ['rate spread', m.rateSpreadPercent === null ? 'the default' : `${m.rateSpreadPercent} %`],
          ['created', m.createdAt],
          ['updated', m.updatedAt],
        ]),
      );
    });

  withWriteOptions(merchant.command('rename').description("change a merchant's display name"))
    .argument('<merchant-id>', 'e.g. mer_...')
    .argument('<name>', 'new display name, 1 to 200 characters')
    .action(async (id: string, name: string, opts: WriteOptions) => {
      const m = await withBackend(io, opts, (b) => b.merchants.rename(id, name, opts));
      show(opts, m, `renamed merchant ${m.id} to ${m.name}`);
    });

  withWriteOptions(
    merchant.command('update').description("change a merchant's settings: name, underpayment tolerance, rate spread"),
  )
    .argument('<merchant-id>', 'e.g. mer_...')
    .option('--name <name>', 'new display name, 1 to 200 characters')
    .option(
      '--underpayment-tolerance <percent>',
      'how far below the amount due (percent, 0 to 5, e.g. 0.5) a payment still completes a checkout; applies to checkouts created afterwards',
    )
    .option(
      '--rate-spread <percent>',
      "markup on the payer's rate of converted checkout options (percent, 0 to 10, e.g. 1.5), or `default` for the operators' default (hostpay rate spread show); applies to checkouts created afterwards",
    )
    .action(
      async (
        id: string,
        opts: WriteOptions & { name?: string; underpaymentTolerance?: string; rateSpread?: string },
      ) => {
        if (opts.name === undefined && opts.underpaymentTolerance === undefined && opts.rateSpread === undefined)
          throw new UsageError('merchant update needs at least one of --name, --underpayment-tolerance, --rate-spread');
        const spread = opts.rateSpread === 'default' ? null : opts.rateSpread;
        const m = await withBackend(io, opts, (b) =>
          b.merchants.update(
            id,
            { name: opts.name, underpaymentTolerancePercent: opts.underpaymentTolerance, rateSpreadPercent: spread },
            opts,
          ),
        );
        const ownSpread = m.rateSpreadPercent === null ? 'the default' : `${m.rateSpreadPercent} %`;
        show(
          opts,
          m,
          `updated merchant ${m.id} (${m.name}): underpayment tolerance ${m.underpaymentTolerancePercent} %, rate spread ${ownSpread}`,
        );
      },
    );

  withWriteOptions(
    merchant
      .command('suspend')
      .description('suspend a merchant: its API keys are refused (403 MERCHANT_SUSPENDED) until resumed'),
  )
    .argument('<merchant-id>', 'e.g. mer_...')
    .action(async (id: string, opts: WriteOptions) => {
      const m = await withBackend(io, opts, (b) => b.merchants.suspend(id, opts));
      show(
        opts,
        m,
        `suspended merchant ${m.id} (${m.name}): its API keys are refused until hostpay merchant resume ${m.id}`,
      );
    });

  withWriteOptions(merchant.command('resume').description('resume a suspended merchant: its API keys work again'))
    .argument('<merchant-id>', 'e.g. mer_...')
    .action(async (id: string, opts: WriteOptions) => {
      const m = await withBackend(io, opts, (b) => b.merchants.resume(id, opts));
      show(opts, m, `resumed merchant ${m.id} (${m.name}): status ${m.status}`);
    });
}
