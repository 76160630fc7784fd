import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Answers smaller than this go out as they are: compressing them saves little and costs time. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Bytes the compressed-answer memo may hold (answer texts and their compressed forms). */
export const COMPRESSED_MEMO_BYTES = 32 * 1024 * 1024;
const DOCS_PREFIX = '/docs';

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];
// The plugin's own choice for brotli: quality 11 would cost ~50x the CPU for a few % of size.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Response compression when the client asks for it (`accept-encoding`): brotli first (smaller,
 * and at quality 4 as fast as gzip), else gzip, above 1 KB. A 1,000-wallet list (~0.65 MB of
 * JSON) shrinks ~20-fold. Compression works on the finished bytes, so exact decimal literals come
 * back byte for byte. `vary: accept-encoding` is set on every compressed answer.
 *
 * The merchant answers are cached as finished JSON text, so a memo keyed by that text keeps each
 * answer's compressed bytes (bounded by size, oldest dropped first) instead of compressing the
 * same string on every request (what that cost: docs/benchmarks.md); a miss compresses on the
 * thread pool. The API documentation's files (Swagger UI's scripts) come from the docs app
 * (docs-app.ts), whose @fastify/compress compresses them with the options below; the app passes
 * its answers on as they are. The plugin's hooks cost on every request, compressed or not (a
 * measurable share of a cached wallet-list request's CPU), which is why the app's own answers
 * do without it.
 *
 * The memo runs as a route-level onSend hook, after the instance's (the admin idempotency hook
 * still sees and stores the JSON text). Request bodies are never inflated: no route takes a large
 * one, and the body limit is meant for the bytes received.
 */
export function registerCompression(app: FastifyInstance): void {
  const memo = new CompressedMemo(COMPRESSED_MEMO_BYTES);
  const onSend = memoOnSend(memo);
  app.addHook('onRoute', (route) => {
    const options = route as { compress?: unknown };
    if (options.compress === false || route.url.startsWith(DOCS_PREFIX)) return;
    const own = route.onSend;
    route.onSend = [onSend, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])] as NonNullable<
      typeof route.onSend
    >;
  });
}

/** @fastify/compress's options for the docs app: brotli first, else gzip, above 1 KB, never inflating. */
export const COMPRESSION_PLUGIN_OPTIONS = {
  globalDecompression: false,
  encodings: ENCODINGS,
  threshold: COMPRESSION_THRESHOLD_BYTES,
  brotliOptions: BROTLI,
};

/** The encoding to use, as @fastify/compress negotiates it (`*` and `x-gzip` mean gzip). */
function chooseEncoding(req: FastifyRequest): Encoding | undefined {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return undefined;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS) ?? undefined;
}

function memoOnSend(memo: CompressedMemo): onSendHookHandler {
  return (req, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < COMPRESSION_THRESHOLD_BYTES || reply.statusCode !== 200)
      return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json') || reply.hasHeader('content-encoding'))
      return done(null, payload);
    const encoding = chooseEncoding(req);
    if (encoding === undefined) return done(null, payload);
    memo.get(payload, encoding).then(
      (bytes) => done(null, compressedReply(reply, encoding, bytes)),
      () => done(null, payload), // the plugin tries again, or it goes out uncompressed
    );
  };
}

function compressedReply(reply: FastifyReply, encoding: Encoding, bytes: Buffer): Buffer {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(String(vary)))
    reply.header('vary', `${String(vary)}, accept-encoding`);
  reply.header('content-encoding', encoding);
  reply.header('content-length', bytes.length);
  return bytes;
}

interface MemoEntry {
  size: number;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/**
 * Compressed forms of answer texts, keyed by the text itself. A cached answer is the same string
 * object each time, whose hash V8 keeps, so a hit costs a Map lookup. Bounded by bytes (text
 * length plus compressed sizes), dropping the least recently used entries first.
 */
export class CompressedMemo {
  private readonly entries = new Map<string, MemoEntry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(text: string, encoding: Encoding): Promise<Buffer> {
    let entry = this.entries.get(text);
    if (entry === undefined) {
      entry = { size: text.length };
      this.bytes += entry.size;
    } else {
      this.entries.delete(text); // re-inserted below: most recently used last
    }
    this.entries.set(text, entry);
    const found = entry[encoding];
    if (found !== undefined) return found;
    const pending = compress(text, encoding);
    entry[encoding] = pending;
    const owner = entry;
    pending.then(
      (buf) => {
        if (this.entries.get(text) === owner) this.bytes += buf.length;
        owner.size += buf.length;
        this.evict();
      },
      () => {
        if (owner[encoding] === pending) delete owner[encoding]; // not kept: the next request tries again
      },
    );
    this.evict();
    return pending;
  }

  /** Bytes held, for tests. */
  get size(): number {
    return this.bytes;
  }

  private evict(): void {
    for (const [text, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || this.entries.size <= 1) return;
      this.entries.delete(text);
      this.bytes -= entry.size;
    }
  }
}

function compress(text: string, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === 'br') brotliCompress(text, BROTLI, done);
    else gzip(text, done);
  });
}
