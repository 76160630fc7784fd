import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminCaller, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { describeStores } from '../helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * Without a transport every mail is kept and shown to operators (GET /admin/v1/mail); on a
 * sandbox, mail to payers is kept, every subject starts [Sandbox]; the per-merchant payer limit
 * and the per-recipient limit; a link token's body is deleted 7 days after sending.
 */
const audit = { operator: 'test' };

describeStores('mail kept, limited and deleted', (dialect) => {
  let kept: HttpFixture;
  let sandbox: HttpFixture;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
    kept = await createFixture({ adminTokens: OPERATOR_TOKENS }, {}, dialect);
    sandbox = await createFixture(
      {
        sandbox: true,
        smtpUrl: rx.url,
        mailFrom: 'demo@sandbox.example',
        mailPayerDailyLimit: 2,
        mailRecipientHourlyLimit: 3,
      },
      {},
      dialect,
    );
  });
  afterAll(async () => {
    await kept.close();
    await sandbox.close();
    await rx.close();
  });

  it('without HOSTPAY_SMTP_URL a mail is kept, listed at GET /admin/v1/mail with its text, and never sent', async () => {
    const merchantId = await kept.createMerchant('Kept Shop');
    const link = await kept.services.admin.inviteMerchantUser(merchantId, 'kept@example.com', 'owner', audit);
    await kept.services.mail.sender.runOnce();
    const call = adminCaller(() => kept.app);
    const res = await call('GET', '/mail?to=kept@example.com');
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as {
      result: { items: { id: string; status: string; subject: string }[]; nextCursor: string | null };
    };
    expect(body.result.nextCursor).toBeNull();
    expect(body.result.items).toHaveLength(1);
    expect(body.result.items[0]).toMatchObject({ status: 'kept', subject: 'You are invited to Kept Shop on hostpay' });
    const one = await call('GET', `/mail/${body.result.items[0]!.id}`);
    const detail = JSON.parse(one.body).result as { text: string; html: string };
    expect(detail.text).toContain(link.link);
    expect(detail.html).toContain(link.link);
    expect(rx.received).toHaveLength(0);
  });

  it('a mail that cannot be rendered fails alone; the mails after it in the same round are kept', async () => {
    const merchantId = await kept.createMerchant('Render Shop');
    const at = new Date().toISOString();
    await kept.services.store.db
      .insertInto('mail_outbox')
      .values({
        id: 'mail_0000000000unrenderable',
        merchant_id: merchantId,
        kind: 'no-such-kind',
        to_address: 'render@example.com',
        to_role: 'user',
        user_id: null,
        data: '{}',
        data_sealed: null,
        subject: null,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        created_at: at,
        updated_at: at,
        sent_at: null,
        body_deleted_at: null,
      })
      .execute();
    await kept.services.admin.inviteMerchantUser(merchantId, 'after-render@example.com', 'owner', audit);
    await kept.services.mail.sender.runOnce();
    const rows = await kept.services.store.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'status', 'last_error'])
      .where('merchant_id', '=', merchantId)
      .orderBy('to_address')
      .execute();
    expect(rows.map((r) => [r.to_address, r.status])).toEqual([
      ['after-render@example.com', 'kept'],
      ['render@example.com', 'failed'],
    ]);
    expect(rows[1]!.last_error).toMatch(/^could not be rendered: /);
  });

  it('on a sandbox, mail to a payer is kept and every subject starts [Sandbox]; the payer limit and the recipient limit hold', async () => {
    const merchantId = await sandbox.createMerchant('Sandbox Shop');
    const { store, mail } = sandbox.services;
    await sandbox.services.admin.inviteMerchantUser(merchantId, `user-${dialect}@example.com`, 'owner', audit);
    for (let i = 0; i < 3; i++)
      await store.writeTransaction((trx) =>
        mail.enqueue(trx, {
          merchantId,
          kind: 'password-reset',
          to: `payer${i}@example.com`,
          toRole: 'payer',
          data: { link: 'https://x.example/' },
        }),
      );
    await mail.sender.runOnce();
    const rows = await store.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.to_role, r.status])).toEqual([
      ['user', 'sent'],
      ['payer', 'kept'],
      ['payer', 'kept'],
      ['payer', 'limited'],
    ]);
    expect(rows.slice(0, 3).every((r) => r.subject?.startsWith('[Sandbox] '))).toBe(true);
    const [sent] = rx.received.filter((r) => r.envelope.to.includes(`user-${dialect}@example.com`));
    expect(sent!.mail.subject).toMatch(/^\[Sandbox\] You are invited/);
    expect(rx.received.some((r) => r.envelope.to.some((t) => t.startsWith('payer')))).toBe(false);

    // At most 3 mails an hour to one address (security notices excepted).
    const to = `often-${dialect}@example.com`;
    for (let i = 0; i < 4; i++)
      await store.writeTransaction((trx) =>
        mail.enqueue(trx, {
          merchantId,
          kind: 'password-reset',
          to,
          toRole: 'user',
          data: { link: 'https://x.example/' },
        }),
      );
    await mail.sender.runOnce();
    const often = await store.db
      .selectFrom('mail_outbox')
      .select('status')
      .where('to_address', '=', to)
      .orderBy('id')
      .execute();
    expect(often.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'limited']);
  });

  it("a link token's body is sealed, and deleted 7 days after sending", async () => {
    const merchantId = await kept.createMerchant('Old Shop');
    await kept.services.admin.inviteMerchantUser(merchantId, `old-${dialect}@example.com`, 'owner', audit);
    const sender = kept.services.mail.spawnSender();
    await sender.runOnce();
    const row = () =>
      kept.services.store.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('to_address', '=', `old-${dialect}@example.com`)
        .executeTakeFirstOrThrow();
    expect((await row()).data_sealed).not.toBeNull();
    await kept.services.mail.spawnSender({ now: () => Date.now() + 6 * 86_400_000 }).runOnce();
    expect((await row()).data_sealed).not.toBeNull();
    await kept.services.mail.spawnSender({ now: () => Date.now() + 8 * 86_400_000 }).runOnce();
    const gone = await row();
    expect(gone.data_sealed).toBeNull();
    expect(gone.body_deleted_at).not.toBeNull();
    const detail = await kept.services.admin.getMail(gone.id);
    expect(detail).toMatchObject({ bodyDeleted: true, text: null, subject: 'You are invited to Old Shop on hostpay' });
  });

  it('a mail no template renders any more (a retired kind) is still shown to operators, without its text', async () => {
    const merchantId = await kept.createMerchant('Retired Shop');
    await kept.services.admin.inviteMerchantUser(merchantId, `retired-${dialect}@example.com`, 'owner', audit);
    const { id } = await kept.services.store.db
      .updateTable('mail_outbox')
      .set({ kind: 'retired.kind' })
      .where('to_address', '=', `retired-${dialect}@example.com`)
      .returning('id')
      .executeTakeFirstOrThrow();
    const detail = await kept.services.admin.getMail(id);
    expect(detail).toMatchObject({ id, text: null, html: null });
  });
});
