import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves little and costs time. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Response compression when the client asks for it (`accept-encoding`): brotli first (smaller,
 * and at the plugin's quality 4 as fast as gzip), else gzip, above 1 KB. A 1,000-wallet list
 * (~0.6 MB of JSON) shrinks about 20-fold; the typical answers (a 5-wallet list is ~2.5 KB, a fee
 * preview, errors) stay below or near the threshold. Compression works on the finished bytes,
 * so the exact decimal literals come back byte for byte after decompression.
 *
 * Registered before the routes: the plugin attaches its onSend hook to each route as it is
 * added, and as a route-level hook it runs after the instance's onSend hooks (the admin
 * idempotency hook still sees the JSON text it stores). It sets `vary: accept-encoding` on every
 * answer it compresses.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    // Request bodies stay as sent: no route takes a large one, and a compressed body would
    // slip past the body limit's intent (it is checked on the bytes received).
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
  });
}
