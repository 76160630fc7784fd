import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/create-server.js';
import { compiledMessages, ENGLISH } from '../../src/i18n/messages.js';

/**
 * Start-up compiles no message (issue 44: nothing is compiled at start that could wait for first
 * use; a module-level `t()` once cost ~20 ms of Intl locale resolution at every `serve`).
 */
describe('messages at start-up', () => {
  it('a server started and answering /healthz has compiled none; the first page that speaks compiles its own', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-lazy-'));
    const config = loadConfig(
      {},
      { dataDir, logLevel: 'silent', port: 0, masterKey: randomBytes(32).toString('base64'), sandbox: true },
    );
    const server = await createServer(config, { logger: false, webhookWorker: false, evmWatcher: false });
    const running = await server.listen({ handleSignals: false });
    try {
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      expect(compiledMessages()).toBe(0);
      ENGLISH.t('receipt.sandbox');
      expect(compiledMessages()).toBe(1);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
