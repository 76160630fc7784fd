import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { WEBHOOK_PATHS, webhookHeaders } from '@hostpay/protocol';
import { resolveCredentials, urlFor, withCredentialOptions, type CredentialFlags, type Credentials } from '../credentials.js';
import { answerOf, cannotReach } from '../merchant-call.js';
import { integerIn } from '../options.js';
import { CommandError, UsageError, type Io } from '../output.js';
import { authHeaders } from '../signed-request.js';
import { requestToken } from '../token-request.js';

export interface StreamedEvent {
  sequence: number;
  type: string;
  /** The event JSON exactly as the server sent it (what a webhook carries). */
  body: string;
}

/**
 * Reads a Server-Sent Events body: each message's `id:` (the sequence), `event:` (the type) and
 * `data:` lines (joined with newlines, as the spec says), and the `: events after #N` comment the
 * server opens with.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamedEvent | { after: number }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      const data: string[] = [];
      let id: string | undefined;
      let type = 'message';
      for (const line of block.split('\n')) {
        const opened = /^: events after #(\d+)$/.exec(line);
        if (opened) yield { after: Number(opened[1]) };
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
        else if (field === 'event') type = value;
      }
      if (data.length > 0 && id !== undefined) yield { sequence: Number(id), type, body: data.join('\n') };
    }
  }
}

/** One connection to the event stream; resolves when the server ends it, with the last sequence seen. */
async function followOnce(creds: Credentials, after: number | undefined, types: string | undefined, onReady: (after: number) => void, onEvent: (e: StreamedEvent) => Promise<boolean>): Promise<{ after: number | undefined; stop: boolean }> {
  const q = new URLSearchParams();
  if (after !== undefined) q.set('afterSequence', String(after));
  if (types !== undefined) q.set('type', types);
  const url = urlFor(creds.baseUrl, `${WEBHOOK_PATHS.eventStream}${q.size > 0 ? `?${q}` : ''}`);
  const token = creds.token ?? (await requestToken(creds)).accessToken;
  const response = await fetch(url, { headers: { ...authHeaders({ ...creds, token }, '', Date.now(), { method: 'GET', url }), accept: 'text/event-stream' } });
  if (response.status !== 200 || response.body === null) {
    answerOf(response.status, await response.text(), url);
    throw new Error(`unexpected HTTP ${response.status} response from ${url}: not an event stream`);
  }
  for await (const item of readEventStream(response.body)) {
    if ('after' in item) {
      after ??= item.after;
      onReady(item.after);
      continue;
    }
    after = item.sequence;
    if (await onEvent(item)) {
      await response.body.cancel().catch(() => undefined);
      return { after, stop: true };
    }
  }
  return { after, stop: false };
}

/**
 * `hostpay listen --forward-to http://localhost:3000/hooks`: follows the merchant's events over
 * the server's event stream (Server-Sent Events: needs no public URL and no open port) and
 * forwards each to a local URL signed exactly as hostpay's webhooks are, with a local secret it
 * prints, so the receiving code verifies with the same Standard Webhooks library. When the stream
 * ends or breaks it reconnects after the last event it saw, so nothing is skipped.
 */
export function registerListen(program: Command, io: Io): void {
  const cmd = program
    .command('listen')
    .description('forward your events to a local URL, signed like real webhooks with a local secret it prints')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/hooks')
    .option('--events <types>', 'only these event types, comma-separated (default: every type)')
    .option('--secret <whsec>', 'signing secret to use (default: $HOSTPAY_LISTEN_SECRET, else a new one each run)')
    .option('--max-events <n>', 'stop after forwarding this many events (for scripts and tests)', integerIn(1, 1_000_000));
  withCredentialOptions(cmd, { tokenHelp: 'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own, again on each reconnection)' }).action(
    async (opts: CredentialFlags & { forwardTo: string; events?: string; secret?: string; maxEvents?: number }) => {
      if (!/^https?:\/\//.test(opts.forwardTo)) throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:3000/hooks');
      const secret = opts.secret ?? io.env.HOSTPAY_LISTEN_SECRET ?? `whsec_${randomBytes(24).toString('base64')}`;
      if (!secret.startsWith('whsec_')) throw new UsageError('--secret must be whsec_ followed by base64');
      const creds = resolveCredentials(opts, io.env);
      let forwarded = 0;
      let ready = false;
      const forward = async (e: StreamedEvent): Promise<boolean> => {
        const headers = { ...webhookHeaders([secret], eventId(e.body), Math.floor(Date.now() / 1000), e.body), 'content-type': 'application/json' };
        let outcome: string;
        try {
          const res = await fetch(opts.forwardTo, { method: 'POST', headers, body: e.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
          outcome = `HTTP ${res.status}`;
          await res.body?.cancel();
        } catch (err) {
          const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
          outcome = `error: ${cause}`;
        }
        io.stdout(`${new Date().toISOString()}  ${e.type}  ${eventId(e.body)}  -> ${outcome}\n`);
        forwarded++;
        return opts.maxEvents !== undefined && forwarded >= opts.maxEvents;
      };
      const onReady = (after: number) => {
        if (ready) return;
        ready = true;
        io.stdout(`Ready: forwarding events after #${after} to ${opts.forwardTo}\nYour local webhook signing secret is ${secret}\n`);
      };
      let after: number | undefined;
      for (;;) {
        try {
          const r = await followOnce(creds, after, opts.events, onReady, forward);
          after = r.after;
          if (r.stop) return;
        } catch (err) {
          // Refusals (bad credentials, scope, too many streams) end the command; a lost connection is retried.
          if (err instanceof CommandError && err.code !== 'UNAVAILABLE') throw err;
          if (!ready) throw cannotReach(creds.baseUrl, err);
          io.stderr(`event stream interrupted (${err instanceof Error ? err.message : String(err)}); reconnecting\n`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  );
}

/** The event's id (`"id":"evt_…"` leads every event the server writes). */
function eventId(body: string): string {
  return /^\{"id":"([^"]+)"/.exec(body)?.[1] ?? 'evt_?';
}
