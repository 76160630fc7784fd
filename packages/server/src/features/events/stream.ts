import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_STREAM_KEEPALIVE_MS } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import type { WakeBus } from './wakeup.js';
import { eventJson } from './view.js';
import type { StreamCredentialCheck } from './stream-credentials.js';

/**
 * How often an open stream looks for new events when nothing woke it, ms: writers that cannot
 * wake it (the CLI on SQLite, another process) are seen this late at worst.
 */
const POLL_MS = 2000;
/** Streams open at once per merchant, and in all, on one instance. */
export const STREAMS_PER_MERCHANT = 5;
const STREAMS_IN_ALL = 200;
/** Events read per look. */
const PAGE = 200;
/** Bytes written and not yet taken by the client before the stream is ended. */
const MAX_BUFFERED = 1024 * 1024;
/**
 * How often the credentials of every open stream are asked again, ms (stream-credentials.ts): a
 * revocation, suspension or removed scope ends the streams it concerns within about this long.
 */
const RECHECK_MS = 1000;

export interface StreamOptions {
  /** Where the commits of the merchant's events wake its streams (wakeup.ts); without: the poll only. */
  wakeups?: Pick<WakeBus, 'events'> | undefined;
  /** How often a stream looks when nothing woke it, ms. Default 2000. */
  pollMs?: number | undefined;
  /** How often open streams' credentials are asked again, ms. Default 1000. */
  recheckMs?: number | undefined;
}

export interface StreamRequest {
  merchantId: string;
  afterSequence: number | undefined;
  types: string[] | undefined;
  maxSeconds: number;
  /** Asked about every second while the stream is open: a reason (error code) ends it. */
  credentials?: StreamCredentialCheck | undefined;
}

/** One event as a Server-Sent Events message: `id:` is its sequence (EventSource resumes from it). */
export function sseMessage(e: { sequence: number | string; type: string }, json: string): string {
  return `id: ${Number(e.sequence)}\nevent: ${e.type}\n${json
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/**
 * The merchant's events as Server-Sent Events (what `hostpay listen` follows): every event after
 * `afterSequence` (default: the newest now), in sequence order, then each new one as it commits,
 * for at most `maxSeconds`; clients reconnect with the last `id:` as `afterSequence`. An idle
 * stream costs no queries: the commit of an event of its merchant wakes it (wakeup.ts: right after
 * the commit in this process, through LISTEN/NOTIFY from other instances on PostgreSQL), and only
 * writers that cannot wake it are left to the slow poll (`pollMs`). Wakes that come while a
 * stream reads make one more read, so a stream has at most one query in flight however many
 * events commit. Streams are counted per merchant and in all, and every one ends when the server
 * shuts down.
 */
export function eventStreams(db: Db, opts: StreamOptions = {}) {
  const pollMs = opts.pollMs ?? POLL_MS;
  const recheckMs = opts.recheckMs ?? RECHECK_MS;
  const open = new Map<FastifyReply, () => void>();
  /** The streams whose credentials the sweep asks again, with how to end each with a reason. */
  const checked = new Map<FastifyReply, { check: StreamCredentialCheck; revoke: (reason: string) => void }>();
  let sweeper: NodeJS.Timeout | undefined;
  /** A check still in flight is not asked again (a slow store must not pile them up). */
  const asking = new Set<FastifyReply>();
  const perMerchant = new Map<string, number>();
  /** Streams counted from the moment they are admitted (before the first await), so a burst cannot pass the limits. */
  let admitted = 0;

  function release(merchantId: string): void {
    admitted--;
    const left = (perMerchant.get(merchantId) ?? 1) - 1;
    if (left === 0) perMerchant.delete(merchantId);
    else perMerchant.set(merchantId, left);
  }

  async function newest(merchantId: string): Promise<number> {
    const row = await db
      .selectFrom('events')
      .select('sequence')
      .where('merchant_id', '=', merchantId)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirst();
    return Number(row?.sequence ?? 0);
  }

  /**
   * One timer for all the streams of this instance, running only while some are open. A check
   * answered from the key cache (the usual case) costs a Map lookup; a check that throws (the
   * store is away) keeps the stream: the next sweep asks again.
   */
  function sweep(): void {
    for (const [reply, { check, revoke }] of checked) {
      if (asking.has(reply)) continue;
      let reason: ReturnType<StreamCredentialCheck>;
      try {
        reason = check();
      } catch {
        continue;
      }
      if (!(reason instanceof Promise)) {
        if (reason !== undefined) revoke(reason);
        continue;
      }
      asking.add(reply);
      reason.then(
        (r) => {
          asking.delete(reply);
          if (r !== undefined) revoke(r);
        },
        () => asking.delete(reply),
      );
    }
  }

  function watch(reply: FastifyReply, check: StreamCredentialCheck, revoke: (reason: string) => void): void {
    checked.set(reply, { check, revoke });
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, recheckMs);
      sweeper.unref();
    }
  }

  function unwatch(reply: FastifyReply): void {
    checked.delete(reply);
    asking.delete(reply);
    if (checked.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  return {
    /** Ends every open stream (the server is shutting down). */
    closeAll(): void {
      for (const end of [...open.values()]) end();
    },

    get size(): number {
      return open.size;
    },

    async serve(req: FastifyRequest, reply: FastifyReply, q: StreamRequest): Promise<void> {
      const count = perMerchant.get(q.merchantId) ?? 0;
      if (count >= STREAMS_PER_MERCHANT || admitted >= STREAMS_IN_ALL) {
        throw new HostpayError(
          'RATE_LIMITED',
          `at most ${STREAMS_PER_MERCHANT} event streams at once per merchant: close one first`,
        );
      }
      perMerchant.set(q.merchantId, count + 1);
      admitted++;
      let after: number;
      try {
        after = q.afterSequence ?? (await newest(q.merchantId));
      } catch (err) {
        release(q.merchantId);
        throw err;
      }
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-request-id': String(req.id),
        // Proxies that buffer (nginx) pass it through as it comes.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: 1000\n: events after #${after}\n\n`);
      let ended = false;
      let timer: NodeJS.Timeout | undefined;
      let resume: (() => void) | undefined;
      /** A wake came since the current look started: what it announced may not be in that look. */
      let woken = false;
      // Subscribed before the first look, so no commit falls between that look and the first wake;
      // a one-look request (maxSeconds 0) never waits, so it does not subscribe.
      const wakes =
        q.maxSeconds === 0
          ? undefined
          : opts.wakeups?.events(q.merchantId, () => {
              woken = true;
              resume?.();
            });
      const end = () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        resume?.();
        void wakes?.stop().catch(() => undefined);
        clearInterval(keepalive);
        clearTimeout(deadline);
        open.delete(reply);
        unwatch(reply);
        release(q.merchantId);
        raw.end();
      };
      open.set(reply, end);
      // The reason goes out as a comment (EventSource and `hostpay listen` skip comments); the
      // client reconnects and the authentication answers it with the error in full.
      if (q.credentials !== undefined && q.maxSeconds !== 0)
        watch(reply, q.credentials, (reason) => {
          if (ended) return;
          raw.write(`: stream ended: ${reason}\n\n`);
          end();
        });
      // The response closes when the client goes away (the request's own 'close' only means it was read).
      raw.on('close', end);
      raw.on('error', end);
      const keepalive = setInterval(() => raw.write(': keep-alive\n\n'), EVENT_STREAM_KEEPALIVE_MS);
      keepalive.unref();
      const deadline = q.maxSeconds > 0 ? setTimeout(end, q.maxSeconds * 1000) : undefined;
      deadline?.unref();
      const look = async (): Promise<number> => {
        let query = db
          .selectFrom('events')
          .selectAll()
          .where('merchant_id', '=', q.merchantId)
          .where('sequence', '>', after);
        if (q.types !== undefined) query = query.where('type', 'in', q.types);
        const rows = await query.orderBy('sequence').limit(PAGE).execute();
        for (const row of rows) {
          if (ended) break;
          raw.write(sseMessage(row, eventJson(row)));
          after = Number(row.sequence);
        }
        return rows.length;
      };
      for (;;) {
        woken = false;
        let read: number;
        try {
          read = await look();
        } catch (err) {
          // The store is away: the client reconnects (retry: 1000) and resumes from its last id.
          req.log.warn({ err }, 'event stream ended: the store did not answer');
          return end();
        }
        // A client that does not read is not buffered for without bound: it resumes from its last id.
        if (ended || raw.writableLength > MAX_BUFFERED || (read < PAGE && q.maxSeconds === 0)) return end();
        if (read < PAGE && !woken) {
          await new Promise<void>((resolve) => {
            resume = resolve;
            timer = setTimeout(resolve, pollMs);
          });
          resume = undefined;
          clearTimeout(timer);
        }
        if (ended) return;
      }
    },
  };
}

export type EventStreams = ReturnType<typeof eventStreams>;
