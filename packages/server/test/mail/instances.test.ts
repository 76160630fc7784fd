import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { describeStores } from '../helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * The outbox across instances and crashes: two senders over one store send each mail once; a
 * sender killed with SIGKILL between its claim and the send loses nothing — its lease holds the
 * mails from other instances until it expires, and a restart of the same instance takes them
 * back at once.
 */
const SCRIPT = fileURLToPath(new URL('./sender-process.mjs', import.meta.url));

function runChild(
  fx: HttpFixture,
  smtpUrl: string,
  kill: boolean,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], {
      env: {
        ...process.env,
        MAIL_DATA_DIR: fx.config.dataDir,
        MAIL_DATABASE_URL: fx.config.databaseUrl,
        MAIL_DATABASE_SCHEMA: fx.config.databaseSchema,
        MAIL_SMTP_URL: smtpUrl,
        MAIL_KILL_AFTER_CLAIM: kill ? '1' : '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code !== 0 && signal === null
        ? reject(new Error(`sender process failed (${code}): ${stderr}`))
        : resolve({ code, signal }),
    );
  });
}

describeStores('mail across instances', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  let merchantId: string;
  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture({ smtpUrl: rx.url, mailFrom: 'billing@pay.example.com' }, {}, dialect);
    merchantId = await fx.createMerchant('Twin Shop');
  });
  afterAll(async () => {
    await fx.close();
    await rx.close();
  });
  const enqueue = (n: number, prefix: string) =>
    fx.services.store.writeTransaction(async (trx) => {
      for (let i = 0; i < n; i++)
        await fx.services.mail.enqueue(trx, {
          merchantId,
          kind: 'password-reset',
          to: `${prefix}${i}@example.com`,
          toRole: 'user',
          data: { link: `https://pay.example.com/x/${i}` },
        });
    });
  const ids = (prefix: string) =>
    rx.received.filter((r) => r.envelope.to[0]!.startsWith(prefix)).map((r) => r.mail.messageId);

  it('two senders over one store send each of 40 mails exactly once', async () => {
    await enqueue(40, `twin-${dialect}-`);
    const a = fx.services.mail.spawnSender({ owner: 'a/1', earlier: 'a/', batch: 3 });
    const b = fx.services.mail.spawnSender({ owner: 'b/1', earlier: 'b/', batch: 3 });
    const [na, nb] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(na + nb).toBe(40);
    const got = ids(`twin-${dialect}-`);
    expect(got).toHaveLength(40);
    expect(new Set(got).size).toBe(40);
    const rows = await fx.services.store.db
      .selectFrom('mail_outbox')
      .select('status')
      .where('to_address', 'like', `twin-${dialect}-%`)
      .execute();
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
  });

  it('a sender killed with SIGKILL between claim and send loses nothing; its restart sends each mail once', async () => {
    const prefix = `crash-${dialect}-`;
    await enqueue(5, prefix);
    const exit = await runChild(fx, rx.url, true);
    expect(exit.signal).toBe('SIGKILL');
    const leased = await fx.services.store.db
      .selectFrom('mail_outbox')
      .select(['status', 'lease_owner'])
      .where('to_address', 'like', `${prefix}%`)
      .execute();
    expect(leased.length).toBe(5);
    expect(leased.every((r) => r.status === 'pending' && r.lease_owner?.startsWith('child/'))).toBe(true);
    expect(ids(prefix)).toHaveLength(0);
    // Another instance leaves them while the dead one's lease lasts …
    expect(await fx.services.mail.spawnSender({ owner: 'other/1', earlier: 'other/' }).runOnce()).toBe(0);
    // … and the same instance, restarted, takes them back at once.
    await runChild(fx, rx.url, false);
    const got = ids(prefix);
    expect(got).toHaveLength(5);
    expect(new Set(got).size).toBe(5);
  });
});
