import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionError } from '../../src/features/rates/source-url.js';
import type { Store } from '../../src/store/store.js';
import { ratesEnv, shapes, standIn, type RatesEnv } from './env.js';

const errno = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a failed request as the source health shows it', () => {
  it('names the reason and its code, from the error or from the cause a fetch-style error keeps it on', () => {
    expect(connectionError(errno('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'))).toBe(
      'connection refused (ECONNREFUSED)',
    );
    // undici's fetch says only "fetch failed"; the code is on its cause.
    const fetchFailed = new TypeError('fetch failed', {
      cause: errno('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'),
    });
    expect(connectionError(fetchFailed)).toBe('connection refused (ECONNREFUSED)');
    // Happy eyeballs gives an AggregateError with a code and no message.
    expect(connectionError(Object.assign(new AggregateError([], ''), { code: 'EHOSTUNREACH' }))).toBe(
      'host unreachable (EHOSTUNREACH)',
    );
    // A code without a plain reason keeps the message, and the code once.
    expect(connectionError(errno('write EPROTO 0A00010B:SSL routines', 'EPROTO'))).toBe(
      'write EPROTO 0A00010B:SSL routines',
    );
    expect(connectionError(new TypeError('fetch failed', { cause: errno('bad record', 'ERR_SSL_X') }))).toBe(
      'bad record (ERR_SSL_X)',
    );
    expect(connectionError(new Error('rate source answer larger than 2 MB'))).toBe(
      'rate source answer larger than 2 MB',
    );
  });
});

/**
 * A refresh failing for a reason that is not the source's own (the store, a bug) throws; the
 * refresher's loop logs the message. A proxy's key in the source URL never reaches that log.
 */
describe('an unexpected refresh failure', () => {
  let env: RatesEnv;
  let server: Awaited<ReturnType<typeof standIn>>;
  const key = '0123456789abcdef0123';
  beforeAll(async () => {
    env = await ratesEnv('sqlite', { timeoutMs: 500 });
    server = await standIn((u) => ({ body: shapes.coinbase(u.searchParams.get('currency')!, { EUR: '58000' }) }));
  });
  afterAll(async () => {
    await server?.close();
    await env?.close();
  });

  it('is thrown and logged with the URL masked', async () => {
    const url = `${server.url}/k/${key}`;
    await env.source('px', { kind: 'coinbase', baseUrl: url, pairs: ['BTC/EUR'] });
    // The store fails the write of the answer (the second transaction of a refresh, after the
    // lease) with a message that quotes the URL, as a driver's error may quote a statement.
    const real = env.services.store;
    let writes = 0;
    const store = new Proxy(real, {
      get(target, prop) {
        if (prop === 'writeTransaction')
          return (fn: Parameters<Store['writeTransaction']>[0]) => {
            writes += 1;
            if (writes % 2 === 0) return Promise.reject(new Error(`insert failed for ${url}/v2/exchange-rates`));
            return target.writeTransaction(fn);
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const warned: string[] = [];
    const refresher = env.services.rates.spawnRefresher({ store, log: { warn: (m) => warned.push(m) } });
    try {
      const thrown = await refresher.refresh('px').then(
        () => undefined,
        (e: Error) => e,
      );
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown!.message).toMatch(/^insert failed for /);
      expect(thrown!.message).not.toContain(key);
      expect(thrown!.message).toContain(`${server.url}/k/`);
      // The loop's own path: its warning, scrubbed the same way.
      refresher.start();
      for (let i = 0; i < 100 && warned.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(warned[0]).toMatch(/^rate source px: insert failed for /);
      expect(warned.join('\n')).not.toContain(key);
      expect(writes).toBeGreaterThanOrEqual(4);
    } finally {
      await refresher.stop();
    }
  });
});
