import type { Command } from 'commander';
import { resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { merchantCaller } from '../merchant-call.js';
import { integerIn, withJsonOption } from '../options.js';
import { listDocument, moreLine, printResult, type Io } from '../output.js';
import { renderTable } from '../table.js';

const TOKEN_HELP = 'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own)';
export interface EventView {
  id: string;
  type: string;
  createdAt: string;
  sequence: string;
  data: { object: Record<string, unknown> };
}

/** `hostpay events list|get|redeliver`: the merchant's events (GET /api/v1/cp/events). */
export function registerEvents(program: Command, io: Io): void {
  const events = program
    .command('events')
    .description('your events: list, get one, send one to your webhook endpoints again');

  withJsonOption(
    withCredentialOptions(events.command('list').description('events, newest first (GET /api/v1/cp/events)'), {
      tokenHelp: TOKEN_HELP,
    }),
  )
    .option('--type <types>', 'only these types, comma-separated (e.g. checkout.settled)')
    .option('--limit <n>', 'how many (1-200, default 20)', integerIn(1, 200))
    .option('--cursor <cursor>', 'continue after a previous page (its nextCursor)')
    .action(async (opts: CredentialFlags & { type?: string; limit?: number; cursor?: string; json?: boolean }) => {
      const call = merchantCaller(resolveCredentials(opts, io.env));
      const q = new URLSearchParams({ limit: String(opts.limit ?? 20) });
      if (opts.type !== undefined) q.set('type', opts.type);
      if (opts.cursor !== undefined) q.set('cursor', opts.cursor);
      const page = await call<EventView[]>('GET', `/api/v1/cp/events?${q}`);
      printResult(io, opts.json, listDocument(page.result, page.nextCursor), () => {
        if (page.result.length === 0) return 'no events yet: create a checkout (hostpay trigger checkout.settled)';
        const table = renderTable(
          [
            { header: 'SEQ', align: 'decimal' },
            { header: 'ID' },
            { header: 'TYPE' },
            { header: 'OBJECT' },
            { header: 'CREATED' },
          ],
          page.result.map((e) => [String(e.sequence), e.id, e.type, String(e.data.object.id ?? ''), e.createdAt]),
        );
        return table + moreLine(page.nextCursor);
      });
    });

  withJsonOption(
    withCredentialOptions(
      events
        .command('get')
        .description('one event, as webhooks carry it (GET /api/v1/cp/events/{id})')
        .argument('<id>', 'evt_…'),
      { tokenHelp: TOKEN_HELP },
    ),
  ).action(async (id: string, opts: CredentialFlags & { json?: boolean }) => {
    const call = merchantCaller(resolveCredentials(opts, io.env));
    const answer = await call<EventView>('GET', `/api/v1/cp/events/${encodeURIComponent(id)}`);
    // The event is printed as the server wrote it (exact decimals), with or without --json.
    const inner = answer.text.slice(
      answer.text.indexOf('"result":') + '"result":'.length,
      answer.text.lastIndexOf('}'),
    );
    io.stdout(`${inner}\n`);
  });

  withJsonOption(
    withCredentialOptions(
      events
        .command('redeliver')
        .description('send an event again, same webhook-id (POST /api/v1/cp/events/{id}/redeliver)')
        .argument('<id>', 'evt_…'),
      { tokenHelp: TOKEN_HELP },
    ),
  )
    .option('--endpoint <id>', 'only to this endpoint (default: every enabled endpoint that subscribes to the type)')
    .action(async (id: string, opts: CredentialFlags & { endpoint?: string; json?: boolean }) => {
      const call = merchantCaller(resolveCredentials(opts, io.env));
      const { result } = await call<{ eventId: string; deliveries: { endpointId: string; deliveryId: string }[] }>(
        'POST',
        `/api/v1/cp/events/${encodeURIComponent(id)}/redeliver`,
        opts.endpoint === undefined ? undefined : { endpointId: opts.endpoint },
      );
      printResult(io, opts.json, result, () =>
        result.deliveries.length === 0
          ? `no enabled endpoint subscribes to ${id}'s type`
          : `queued ${id} for ${result.deliveries.map((d) => d.endpointId).join(', ')}`,
      );
    });
}
