import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../src/crypto/secret-box.js';
import { adminIdempotency } from '../src/http/idempotency.js';
import { installIdempotency } from '../src/http/idempotency-hook.js';
import { tempServices, type TempEnv } from './helpers.js';

/**
 * The Idempotency-Key hooks are callback hooks (http/idempotency-hook.ts): a request that holds a
 * claim calls `done` after its answer is recorded, from a promise. Whatever `done` runs next
 * (writing the head and body) may throw; that must reach Fastify's error path, as it does from a
 * promise hook, and never become an unhandled rejection (which ends the process by default).
 */
describe('Idempotency-Key hooks when writing the answer throws', () => {
  let env: TempEnv;
  beforeAll(async () => {
    env = await tempServices('sqlite');
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('a claimed request whose head cannot be written is answered by the error path, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const app = Fastify({ logger: false });
    try {
      const service = adminIdempotency({ store: env.services.store, box: new SecretBox(randomBytes(32)) });
      installIdempotency(app, service, () => 'op');
      app.post('/bad', async (_req, reply) => {
        // Node refuses a header value with a line break when the head is written, after onSend.
        reply.header('x-broken', 'a\nb');
        return 'made';
      });
      app.post('/good', async () => 'made');
      await app.ready();
      const bad = await app.inject({ method: 'POST', url: '/bad', headers: { 'idempotency-key': 'k-bad' } });
      expect(bad.statusCode).toBe(500);
      // The process still serves, and the hooks still work for the next claimed request.
      const good = await app.inject({ method: 'POST', url: '/good', headers: { 'idempotency-key': 'k-good' } });
      expect(good.statusCode).toBe(200);
      expect(good.body).toBe('made');
      const replay = await app.inject({ method: 'POST', url: '/good', headers: { 'idempotency-key': 'k-good' } });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await app.close();
    }
  });
});
