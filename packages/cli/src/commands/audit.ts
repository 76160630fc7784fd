import { InvalidArgumentError, type Command } from 'commander';
import type { AuditEntry } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  type AdminOptions,
  type PageOptions,
} from '../admin/options.js';
import { printPage } from '../admin/print.js';
import type { Io } from '../output.js';

interface AuditListOptions extends AdminOptions, PageOptions {
  objectType?: string;
  objectId?: string;
  operator?: string;
  action?: string;
  since?: string;
}

export function registerAudit(program: Command, io: Io): void {
  const audit = program.command('audit').description('the audit log: who changed what, when, before and after');

  withPageOptions(withAdminOptions(audit.command('list').description('list audit log entries, oldest first')))
    .option(
      '--object-type <type>',
      'only changes to this kind of object: merchant, api_key, wallet, fee_schedule, settlement_currency, rate, master_key',
    )
    .option('--object-id <id>', 'only changes to this object, e.g. mer_... or hp_...')
    .option('--operator <name>', 'only changes by this operator: a token name such as admin, or cli:<login>')
    .option('--action <action>', 'only this action, e.g. merchant.create, api_key.revoke, wallet.credit')
    .option('--since <time>', 'only entries at or after an ISO 8601 time, or this long ago: 30m, 12h, 7d', sinceTime)
    .addHelpText(
      'after',
      '\nText output is a table; --json has every entry in full, with its before and after snapshots.',
    )
    .action(async (opts: AuditListOptions) => {
      const filter = {
        objectType: opts.objectType,
        objectId: opts.objectId,
        operator: opts.operator,
        action: opts.action,
        since: opts.since,
      };
      const page = await withBackend(io, opts, (b) => b.audit.list({ ...filter, ...pageRequest(opts) }));
      printPage<AuditEntry>(io, opts.json, page, {
        columns: [
          { header: 'AT' },
          { header: 'OPERATOR' },
          { header: 'ACTION' },
          { header: 'OBJECT' },
          { header: 'REQUEST ID' },
        ],
        row: (e) => [e.at, e.operator, e.action, `${e.objectType} ${e.objectId}`, e.requestId ?? '-'],
        empty: 'no audit entries match',
      });
    });
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: an ISO 8601 time, or a duration back from now; always sent as an ISO time. */
export function sinceTime(text: string, _previous?: unknown, now = Date.now()): string {
  const ago = /^([0-9]{1,6})([mhd])$/.exec(text);
  if (ago) return new Date(now - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]).toISOString();
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(text) || Number.isNaN(Date.parse(text))) {
    throw new InvalidArgumentError(
      'must be an ISO 8601 time such as 2026-01-31T12:00:00Z, or a duration such as 30m, 12h or 7d',
    );
  }
  return new Date(text).toISOString();
}
