import { Option, type Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Merchant, MerchantChange, MerchantStatus, UserLink, UserRole } from '../admin/backend.js';
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
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';

export function registerMerchant(program: Command, io: Io): void {
  const merchant = program.command('merchant').description('manage merchants');
  const show = (opts: AdminOptions, m: Merchant, line: string | (() => string)) =>
    printAdmin(io, opts.json, m, typeof line === 'string' ? () => line : line);

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
      show(opts, m, merchantPairs(m));
    });

  withWriteOptions(merchant.command('rename').description("change a merchant's display name"))
    .argument('<merchant-id>', 'e.g. mer_...')
    .argument('<name>', 'new display name, 1 to 200 characters')
    .action(async (id: string, name: string, opts: WriteOptions) => {
      const m = await withBackend(io, opts, (b) => b.merchants.rename(id, name, opts));
      show(opts, m, `renamed merchant ${m.id} to ${m.name}`);
    });

  withWriteOptions(
    merchant
      .command('update')
      .description(
        "change a merchant's settings: name, underpayment tolerance, rate spread, payout cooling-off and limits",
      ),
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
    .option(
      '--payout-cooling-off-hours <hours>',
      'hours a new payout destination cools off before payouts can use it, 0 to 168 (default 24)',
      integerIn(0, 168),
    )
    .option(
      '--payout-auto-approve-limit <amount>',
      'a payout whose total is at most this (in its asset) is approved without an operator (default 0: every payout waits)',
    )
    .option(
      '--payout-daily-limit <asset=amount>',
      'the most that may leave in payouts per rolling 24 h for this asset, e.g. USDT=1000; repeat for more (replaces the list)',
      collectLimit,
    )
    .action(async (id: string, opts: UpdateOptions) => {
      const change: MerchantChange = {
        name: opts.name,
        underpaymentTolerancePercent: opts.underpaymentTolerance,
        rateSpreadPercent: opts.rateSpread === 'default' ? null : opts.rateSpread,
        payoutCoolingOffHours: opts.payoutCoolingOffHours,
        payoutAutoApproveLimit: opts.payoutAutoApproveLimit,
        payoutDailyLimit: opts.payoutDailyLimit,
      };
      if (Object.values(change).every((v) => v === undefined))
        throw new UsageError(
          'merchant update needs at least one of --name, --underpayment-tolerance, --rate-spread, --payout-cooling-off-hours, --payout-auto-approve-limit, --payout-daily-limit',
        );
      const m = await withBackend(io, opts, (b) => b.merchants.update(id, change, opts));
      const payoutChanged =
        change.payoutCoolingOffHours !== undefined ||
        change.payoutAutoApproveLimit !== undefined ||
        change.payoutDailyLimit !== undefined;
      const ownSpread = m.rateSpreadPercent === null ? 'the default' : `${m.rateSpreadPercent} %`;
      const line = `updated merchant ${m.id} (${m.name}): underpayment tolerance ${m.underpaymentTolerancePercent} %, rate spread ${ownSpread}`;
      show(opts, m, () => (payoutChanged ? `${line}\n\n${merchantPairs(m)}` : line));
    });

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

  registerMerchantUser(merchant, io);
}

/** `hostpay merchant user …`: the merchant dashboard's users, as an operator reaches them. */
function registerMerchantUser(merchant: Command, io: Io): void {
  const user = merchant.command('user').description("the merchant dashboard's users: invitations and reset links");
  const printLink = (opts: AdminOptions, link: UserLink, what: string) =>
    printAdmin(io, opts.json, link, () =>
      [`${what} (one-time, valid until ${link.expiresAt}; shown only now, pass it on):`, link.link].join('\n'),
    );

  withWriteOptions(
    user
      .command('invite')
      .description('print a one-time link to the merchant dashboard for EMAIL to choose a password and enrol TOTP'),
  )
    .argument('<merchant-id>', 'e.g. mer_...')
    .argument('<email>', "the user's email (their sign-in name)")
    .addOption(
      new Option('--role <role>', 'the role in the team (default owner)').choices([
        'owner',
        'admin',
        'developer',
        'viewer',
      ]),
    )
    .action(async (id: string, email: string, opts: WriteOptions & { role?: UserRole }) => {
      const link = await withBackend(io, opts, (b) => b.merchants.inviteUser(id, email, opts.role, opts));
      printLink(opts, link, `invitation for ${email} (${opts.role ?? 'owner'}) to merchant ${id}`);
    });

  withWriteOptions(
    user.command('reset-link').description('print a one-time password-reset link for a user of the merchant (24 h)'),
  )
    .argument('<merchant-id>', 'e.g. mer_...')
    .argument('<email>', "the user's email")
    .action(async (id: string, email: string, opts: WriteOptions) => {
      const link = await withBackend(io, opts, (b) => b.merchants.userResetLink(id, email, opts));
      printLink(opts, link, `password reset for ${email} of merchant ${id}`);
    });
}

interface UpdateOptions extends WriteOptions {
  name?: string;
  underpaymentTolerance?: string;
  rateSpread?: string;
  payoutCoolingOffHours?: number;
  payoutAutoApproveLimit?: string;
  payoutDailyLimit?: Record<string, string>;
}

/** `--payout-daily-limit USDT=1000`, repeatable; an asset given twice is a mistake, not an overwrite. */
function collectLimit(text: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([A-Za-z0-9]{1,12})=(.+)$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError('must be ASSET=AMOUNT, e.g. USDT=1000');
  const asset = (m[1] as string).toUpperCase();
  if (Object.hasOwn(previous, asset)) throw new InvalidArgumentError(`asset ${asset} given twice`);
  return { ...previous, [asset]: m[2] as string };
}

/** A merchant's settings as label/value lines (payout settings when the server has them). */
function merchantPairs(m: Merchant): string {
  const payout = m as Merchant & {
    payoutCoolingOffHours?: number;
    payoutAutoApproveLimit?: string;
    payoutDailyLimit?: Record<string, string>;
  };
  const pairs: [string, string][] = [
    ['id', m.id],
    ['name', m.name],
    ['status', m.status],
    ['underpayment tolerance', `${m.underpaymentTolerancePercent} %`],
    ['rate spread', m.rateSpreadPercent === null ? 'the default' : `${m.rateSpreadPercent} %`],
  ];
  if (payout.payoutCoolingOffHours !== undefined)
    pairs.push(['payout cooling-off', `${payout.payoutCoolingOffHours} h`]);
  if (payout.payoutAutoApproveLimit !== undefined)
    pairs.push(['payout auto-approve up to', payout.payoutAutoApproveLimit]);
  if (payout.payoutDailyLimit !== undefined) {
    const limits = Object.entries(payout.payoutDailyLimit);
    pairs.push([
      'payout daily limit',
      limits.length === 0 ? 'none' : limits.map(([asset, amount]) => `${amount} ${asset}`).join(', '),
    ]);
  }
  pairs.push(['created', m.createdAt], ['updated', m.updatedAt]);
  return renderPairs(pairs);
}
