import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { webhookHeaders } from '@hostpay/protocol';
import { resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { merchantCaller, type MerchantCall } from '../merchant-call.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';

interface Listed {
  id: string;
  type: string;
  sequence: string;
}

/** The exact JSON text of `result` in an envelope the server wrote (`…"result":<here>}`). */
export function resultText(envelope: string): string {
  const start = envelope.indexOf('"result":') + '"result":'.length;
  return envelope.slice(start, envelope.lastIndexOf('}'));
}

/** Every event after `after` (all pages), oldest first. */
async function eventsAfter(call: MerchantCall, after: number, types: string | undefined): Promise<Listed[]> {
  const out: Listed[] = [];
  let cursor: string | null | undefined;
  do {
    const q = new URLSearchParams({ limit: '200', afterSequence: String(after) });
    if (types !== undefined) q.set('type', types);
    if (cursor) q.set('cursor', cursor);
    const page = await call<Listed[]>('GET', `/api/v1/cp/events?${q}`);
    out.push(...page.result);
    cursor = page.nextCursor;
  } while (cursor);
  return out.sort((a, b) => Number(a.sequence) - Number(b.sequence));
}

/**
 * `hostpay listen --forward-to http://localhost:3000/hooks`: follows the merchant's events (by
 * polling the events API with `afterSequence`, which works through any proxy and needs no open
 * port) and forwards each to a local URL signed exactly as hostpay's webhooks are, with a local
 * secret it prints, so the receiving code verifies with the same Standard Webhooks library.
 */
export function registerListen(program: Command, io: Io): void {
  const cmd = program
    .command('listen')
    .description('forward your events to a local URL, signed like real webhooks with a local secret it prints')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/hooks')
    .option('--events <types>', 'only these event types, comma-separated (default: every type)')
    .option('--secret <whsec>', 'signing secret to use (default: $HOSTPAY_LISTEN_SECRET, else a new one each run)')
    .option('--interval <ms>', 'how often to look for new events (100-60000, default 1000)', integerIn(100, 60_000))
    .option('--max-events <n>', 'stop after forwarding this many events (for scripts and tests)', integerIn(1, 1_000_000));
  withCredentialOptions(cmd, { tokenHelp: 'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own)' }).action(
    async (opts: CredentialFlags & { forwardTo: string; events?: string; secret?: string; interval?: number; maxEvents?: number }) => {
      if (!/^https?:\/\//.test(opts.forwardTo)) throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:3000/hooks');
      const secret = opts.secret ?? io.env.HOSTPAY_LISTEN_SECRET ?? `whsec_${randomBytes(24).toString('base64')}`;
      if (!secret.startsWith('whsec_')) throw new UsageError('--secret must be whsec_ followed by base64');
      const call = merchantCaller(resolveCredentials(opts, io.env));
      const newest = await call<Listed[]>('GET', '/api/v1/cp/events?limit=1');
      let after = Number(newest.result[0]?.sequence ?? 0);
      io.stdout(`Ready: forwarding events after #${after} to ${opts.forwardTo}\nYour local webhook signing secret is ${secret}\n`);
      let forwarded = 0;
      for (;;) {
        for (const e of await eventsAfter(call, after, opts.events)) {
          const body = resultText((await call('GET', `/api/v1/cp/events/${encodeURIComponent(e.id)}`)).text);
          const headers = { ...webhookHeaders([secret], e.id, Math.floor(Date.now() / 1000), body), 'content-type': 'application/json' };
          let outcome: string;
          try {
            const res = await fetch(opts.forwardTo, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
            outcome = `HTTP ${res.status}`;
            await res.body?.cancel();
          } catch (err) {
            const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
            outcome = `error: ${cause}`;
          }
          io.stdout(`${new Date().toISOString()}  ${e.type}  ${e.id}  -> ${outcome}\n`);
          after = Number(e.sequence);
          forwarded++;
          if (opts.maxEvents !== undefined && forwarded >= opts.maxEvents) return;
        }
        await new Promise((resolve) => setTimeout(resolve, opts.interval ?? 1000));
      }
    },
  );
}
