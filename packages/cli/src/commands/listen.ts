import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { EVENT_STREAM_KEEPALIVE_MS, WEBHOOK_PATHS, webhookHeaders } from '@hostpay/protocol';
import {
  resolveCredentials,
  urlFor,
  withCredentialOptions,
  type CredentialFlags,
  type Credentials,
} from '../credentials.js';
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
export async function* readEventStream(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<StreamedEvent | { after: number }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
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

/**
 * Several keep-alive intervals: one late or lost comment is not a dead connection, but a stream
 * that has said nothing for this long is (a half-open TCP connection or a NAT that dropped the
 * flow never ends by itself, and fetch's own body timeout is minutes).
 */
export const DEFAULT_IDLE_SECONDS = (3 * EVENT_STREAM_KEEPALIVE_MS) / 1000;

/**
 * Aborts the connection when the server sends nothing for `seconds` while we wait on it. Only
 * the waits are timed, not the time spent forwarding an event: a slow local receiver is not a
 * silent server (the bytes that came meanwhile are buffered and read at once).
 */
function idleGuard(seconds: number) {
  const ac = new AbortController();
  const wait = async <T>(step: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error(`no data for ${seconds} s`);
        ac.abort(err);
        reject(err);
      }, seconds * 1000);
    });
    try {
      return await Promise.race([step, silent]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    signal: ac.signal,
    wait,
    async *chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
      const reader = body.getReader();
      try {
        for (;;) {
          const r = await wait(reader.read());
          if (r.done) return;
          yield r.value;
        }
      } finally {
        // However the reading ends (also when the caller stops early), the connection goes with it.
        await reader.cancel().catch(() => undefined);
      }
    },
  };
}

/**
 * One connection to the event stream; resolves when the server ends it (`true`: `onEvent` asked to
 * stop). `cursor.after` moves with each event as it comes, not when the connection ends, so a
 * connection that breaks or goes silent is resumed after the last event it delivered too.
 */
async function followOnce(
  creds: Credentials,
  cursor: { after: number | undefined },
  types: string | undefined,
  idleSeconds: number,
  onReady: (after: number) => void,
  onEvent: (e: StreamedEvent) => Promise<boolean>,
): Promise<boolean> {
  const q = new URLSearchParams();
  if (cursor.after !== undefined) q.set('afterSequence', String(cursor.after));
  if (types !== undefined) q.set('type', types);
  const url = urlFor(creds.baseUrl, `${WEBHOOK_PATHS.eventStream}${q.size > 0 ? `?${q}` : ''}`);
  const token = creds.token ?? (await requestToken(creds)).accessToken;
  const guard = idleGuard(idleSeconds);
  const headers = {
    ...authHeaders({ ...creds, token }, '', Date.now(), { method: 'GET', url }),
    accept: 'text/event-stream',
  };
  const response = await guard.wait(fetch(url, { headers, signal: guard.signal }));
  if (response.status !== 200 || response.body === null) {
    answerOf(response.status, await guard.wait(response.text()), url);
    throw new Error(`unexpected HTTP ${response.status} response from ${url}: not an event stream`);
  }
  for await (const item of readEventStream(guard.chunks(response.body))) {
    if ('after' in item) {
      cursor.after ??= item.after;
      onReady(item.after);
      continue;
    }
    cursor.after = item.sequence;
    // Leaving the loop closes the connection (guard.chunks).
    if (await onEvent(item)) return true;
  }
  return false;
}

/**
 * `hostpay listen --forward-to http://localhost:3000/hooks`: follows the merchant's events over
 * the server's event stream (Server-Sent Events: needs no public URL and no open port) and
 * forwards each to a local URL signed exactly as hostpay's webhooks are, with a local secret it
 * prints, so the receiving code verifies with the same Standard Webhooks library. When the stream
 * ends, breaks or goes silent (`--idle-timeout`) it reconnects after the last event it saw, so
 * nothing is skipped.
 */
export function registerListen(program: Command, io: Io): void {
  const cmd = program
    .command('listen')
    .description('forward your events to a local URL, signed like real webhooks with a local secret it prints')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/hooks')
    .option('--events <types>', 'only these event types, comma-separated (default: every type)')
    .option('--secret <whsec>', 'signing secret to use (default: $HOSTPAY_LISTEN_SECRET, else a new one each run)')
    .option(
      '--max-events <n>',
      'stop after forwarding this many events (for scripts and tests)',
      integerIn(1, 1_000_000),
    )
    .option(
      '--idle-timeout <seconds>',
      `reconnect when the stream sends nothing, not even its keep-alive every ${EVENT_STREAM_KEEPALIVE_MS / 1000} s, for this long (default ${DEFAULT_IDLE_SECONDS})`,
      integerIn(1, 3600),
    );
  withCredentialOptions(cmd, {
    tokenHelp:
      'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own, again on each reconnection)',
  }).action(
    async (
      opts: CredentialFlags & {
        forwardTo: string;
        events?: string;
        secret?: string;
        maxEvents?: number;
        idleTimeout?: number;
      },
    ) => {
      if (!/^https?:\/\//.test(opts.forwardTo))
        throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:3000/hooks');
      const secret = opts.secret ?? io.env.HOSTPAY_LISTEN_SECRET ?? `whsec_${randomBytes(24).toString('base64')}`;
      if (!secret.startsWith('whsec_')) throw new UsageError('--secret must be whsec_ followed by base64');
      const creds = resolveCredentials(opts, io.env);
      let forwarded = 0;
      let ready = false;
      const forward = async (e: StreamedEvent): Promise<boolean> => {
        const headers = {
          ...webhookHeaders([secret], eventId(e.body), Math.floor(Date.now() / 1000), e.body),
          'content-type': 'application/json',
        };
        let outcome: string;
        try {
          const res = await fetch(opts.forwardTo, {
            method: 'POST',
            headers,
            body: e.body,
            redirect: 'manual',
            signal: AbortSignal.timeout(10_000),
          });
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
        io.stdout(
          `Ready: forwarding events after #${after} to ${opts.forwardTo}\nYour local webhook signing secret is ${secret}\n`,
        );
      };
      const cursor: { after: number | undefined } = { after: undefined };
      for (;;) {
        try {
          if (await followOnce(creds, cursor, opts.events, opts.idleTimeout ?? DEFAULT_IDLE_SECONDS, onReady, forward))
            return;
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
