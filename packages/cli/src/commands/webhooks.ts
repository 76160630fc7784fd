import type { Command } from 'commander';
import { resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { merchantCaller } from '../merchant-call.js';
import { commaList, integerIn, withJsonOption } from '../options.js';
import { listDocument, moreLine, printResult, type Io } from '../output.js';
import { renderTable } from '../table.js';

const TOKEN_HELP = 'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own)';
const W = '/api/v1/cp/webhook-endpoints';
interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  disabled: boolean;
  disabledReason: string | null;
  secret?: string;
  lastSuccessAt: string | null;
}
interface Attempt {
  attemptedAt: string;
  eventId: string;
  eventType: string;
  statusCode: string | null;
  error: string | null;
  latencyMs: string;
  succeeded: boolean;
}
type Flags = CredentialFlags & { json?: boolean };
type PageFlags = Flags & { limit?: number; cursor?: string };

/** `--limit` and `--cursor`, as every paged list takes them. */
const pageOptions = (cmd: Command, defaultLimit: number): Command =>
  cmd
    .option('--limit <n>', `at most this many, 1 to 200 (default ${defaultLimit})`, integerIn(1, 200))
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed');

const pageQuery = (opts: PageFlags, defaultLimit: number): URLSearchParams => {
  const q = new URLSearchParams({ limit: String(opts.limit ?? defaultLimit) });
  if (opts.cursor !== undefined) q.set('cursor', opts.cursor);
  return q;
};

const secretLine = (e: Endpoint) =>
  `${e.id} ${e.url}\nsecret ${e.secret} (shown once: store it now; verify deliveries with it, see docs/webhooks.md)`;

/** `hostpay webhooks create|list|test|deliveries|rotate-secret|update|delete|replay`. */
export function registerWebhooks(program: Command, io: Io): void {
  const webhooks = program
    .command('webhooks')
    .description('your webhook endpoints: create, list, test, see deliveries, rotate the secret, replay');
  const sub = (name: string, description: string) =>
    withJsonOption(withCredentialOptions(webhooks.command(name).description(description), { tokenHelp: TOKEN_HELP }));
  const caller = (opts: Flags) => merchantCaller(resolveCredentials(opts, io.env));

  sub('create', 'register an endpoint; prints its whsec_ secret once (POST /api/v1/cp/webhook-endpoints)')
    .requiredOption('--url <url>', 'https URL (http://localhost… only on a sandbox server)')
    .option('--events <types>', 'event types, comma-separated (default: every type)', commaList)
    .option('--description <text>', 'a note for yourself')
    .action(async (opts: Flags & { url: string; events?: string[]; description?: string }) => {
      const body = {
        url: opts.url,
        ...(opts.events ? { enabledEvents: opts.events } : {}),
        ...(opts.description ? { description: opts.description } : {}),
      };
      const { result } = await caller(opts)<Endpoint>('POST', W, body);
      printResult(io, opts.json, result, () => secretLine(result));
    });

  pageOptions(sub('list', 'your endpoints, newest first'), 50).action(async (opts: PageFlags) => {
    const { result, nextCursor } = await caller(opts)<Endpoint[]>('GET', `${W}?${pageQuery(opts, 50)}`);
    printResult(io, opts.json, listDocument(result, nextCursor), () =>
      result.length === 0
        ? 'no endpoints yet: hostpay webhooks create --url https://…'
        : renderTable(
            [
              { header: 'ID' },
              { header: 'URL' },
              { header: 'EVENTS' },
              { header: 'STATE' },
              { header: 'LAST SUCCESS' },
            ],
            result.map((e) => [
              e.id,
              e.url,
              e.enabledEvents.length === 0 ? 'all' : e.enabledEvents.join(','),
              e.disabled ? `disabled (${e.disabledReason})` : 'enabled',
              e.lastSuccessAt ?? '-',
            ]),
          ) + moreLine(nextCursor),
    );
  });

  sub('test', 'send a test.ping event to one endpoint')
    .argument('<id>', 'we_…')
    .action(async (id: string, opts: Flags) => {
      const { result } = await caller(opts)<{ eventId: string }>('POST', `${W}/${encodeURIComponent(id)}/test`);
      printResult(
        io,
        opts.json,
        result,
        () => `queued test.ping ${result.eventId}; see it with hostpay webhooks deliveries ${id}`,
      );
    });

  pageOptions(
    sub('deliveries', 'every attempt to one endpoint, newest first: status or error, latency').argument('<id>', 'we_…'),
    20,
  ).action(async (id: string, opts: PageFlags) => {
    const { result, nextCursor } = await caller(opts)<Attempt[]>(
      'GET',
      `${W}/${encodeURIComponent(id)}/deliveries?${pageQuery(opts, 20)}`,
    );
    printResult(io, opts.json, listDocument(result, nextCursor), () =>
      result.length === 0
        ? 'no attempts yet'
        : renderTable(
            [
              { header: 'AT' },
              { header: 'EVENT' },
              { header: 'TYPE' },
              { header: 'RESULT' },
              { header: 'MS', align: 'decimal' },
            ],
            result.map((a) => [
              a.attemptedAt,
              a.eventId,
              a.eventType,
              a.statusCode === null ? `error: ${a.error}` : `HTTP ${a.statusCode}`,
              String(a.latencyMs),
            ]),
          ) + moreLine(nextCursor),
    );
  });

  sub('rotate-secret', 'new secret; the old one keeps signing for 24 h')
    .argument('<id>', 'we_…')
    .action(async (id: string, opts: Flags) => {
      const { result } = await caller(opts)<Endpoint>('POST', `${W}/${encodeURIComponent(id)}/rotate-secret`);
      printResult(
        io,
        opts.json,
        result,
        () =>
          `${secretLine(result)}\nthe previous secret keeps signing until ${String((result as unknown as { previousSecretExpiresAt: string }).previousSecretExpiresAt)}`,
      );
    });

  sub('update', 'change url, events, description, or disable / enable')
    .argument('<id>', 'we_…')
    .option('--url <url>', 'new URL')
    .option('--events <types>', 'event types, comma-separated ("" for every type)', (t: string) =>
      t === '' ? [] : commaList(t),
    )
    .option('--description <text>', 'new note')
    .option('--disable', 'stop deliveries')
    .option('--enable', 'resume deliveries (after a 410 or 5 days of failures too)')
    .action(
      async (
        id: string,
        opts: Flags & { url?: string; events?: string[]; description?: string; disable?: boolean; enable?: boolean },
      ) => {
        const body = {
          ...(opts.url ? { url: opts.url } : {}),
          ...(opts.events ? { enabledEvents: opts.events } : {}),
          ...(opts.description !== undefined ? { description: opts.description } : {}),
          ...(opts.disable ? { disabled: true } : opts.enable ? { disabled: false } : {}),
        };
        const { result } = await caller(opts)<Endpoint>('PATCH', `${W}/${encodeURIComponent(id)}`, body);
        printResult(
          io,
          opts.json,
          result,
          () => `${result.id} ${result.url} ${result.disabled ? 'disabled' : 'enabled'}`,
        );
      },
    );

  sub('delete', 'delete an endpoint')
    .argument('<id>', 'we_…')
    .action(async (id: string, opts: Flags) => {
      const { result } = await caller(opts)<Endpoint>('DELETE', `${W}/${encodeURIComponent(id)}`);
      printResult(io, opts.json, result, () => `deleted ${result.id}`);
    });

  sub('replay', 'send every event since a time again (after an outage)')
    .argument('<id>', 'we_…')
    .requiredOption('--since <time>', 'ISO 8601, e.g. 2027-01-01T00:00:00Z')
    .action(async (id: string, opts: Flags & { since: string }) => {
      const { result } = await caller(opts)<{ queued: string }>('POST', `${W}/${encodeURIComponent(id)}/replay`, {
        since: opts.since,
      });
      printResult(io, opts.json, result, () => `queued ${result.queued} events for ${id}`);
    });
}
