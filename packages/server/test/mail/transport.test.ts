import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEmail } from '@hostpay/protocol';
import { loadConfig } from '../../src/config.js';
import { escapeHtml, oneLine } from '../../src/features/mail/layout.js';
import { isLoopbackHost } from '../../src/features/checkouts/create-input.js';
import { type MailMessage, smtpTransport, smtpUrlRefusal } from '../../src/features/mail/transport.js';
import { type Receiver, selfSignedCert, startReceiver } from './receiver.js';

/** The transport over real TLS: STARTTLS before AUTH, smtps, and a server without STARTTLS refused. */
const message = (to: string): MailMessage => ({
  messageId: '<mail_test@pay.example.com>',
  from: { name: 'Acme', address: 'billing@pay.example.com' },
  replyTo: null,
  to,
  subject: 'Hello',
  text: 'hello',
  html: '<p>hello</p>',
});

describe('the SMTP transport over TLS', () => {
  const cert = selfSignedCert();
  let starttls: Receiver;
  let smtps: Receiver;
  let plain: Receiver;
  beforeAll(async () => {
    starttls = await startReceiver({ tls: cert, auth: true });
    smtps = await startReceiver({ tls: cert, secure: true, auth: true });
    plain = await startReceiver({ auth: true });
  });
  afterAll(async () => {
    await starttls.close();
    await smtps.close();
    await plain.close();
  });

  it('smtp:// upgrades with STARTTLS before AUTH (the certificate checked against the CA given)', async () => {
    const t = smtpTransport(`smtp://mailer:s3cret@127.0.0.1:${starttls.port}`, {
      tls: { ca: cert.cert },
      requireTls: true,
    });
    const r = await t.send(message('a@example.com'));
    t.close();
    expect(r).toMatchObject({ ok: true });
    expect(starttls.received[0]).toMatchObject({ secure: true, user: 'mailer' });
    expect(starttls.auths).toEqual(['mailer']);
  });

  it('a certificate the CA did not sign is refused, nothing sent', async () => {
    const other = selfSignedCert();
    const t = smtpTransport(`smtp://127.0.0.1:${starttls.port}`, { tls: { ca: other.cert }, requireTls: true });
    const r = await t.send(message('b@example.com'));
    t.close();
    expect(r).toMatchObject({ ok: false, permanent: false });
    expect(starttls.received.map((m) => m.envelope.to[0])).not.toContain('b@example.com');
  });

  it('smtps:// is TLS from the first byte', async () => {
    const t = smtpTransport(`smtps://mailer:s3cret@127.0.0.1:${smtps.port}`, { tls: { ca: cert.cert } });
    expect(await t.send(message('c@example.com'))).toMatchObject({ ok: true });
    t.close();
    expect(smtps.received[0]).toMatchObject({ secure: true });
  });

  it('where STARTTLS is required, a server without it gets neither AUTH nor the message', async () => {
    const t = smtpTransport(`smtp://mailer:s3cret@127.0.0.1:${plain.port}`, { requireTls: true });
    const r = await t.send(message('d@example.com'));
    t.close();
    expect(r).toMatchObject({ ok: false });
    expect(plain.auths).toEqual([]);
    expect(plain.received).toEqual([]);
    // The error names the host, never the password.
    expect(JSON.stringify(r)).not.toContain('s3cret');
  });
});

describe('transport settings and address checks', () => {
  it('an invalid secret setting is named, its credentials never shown', () => {
    for (const [env, value] of [['HOSTPAY_SMTP_URL', 'SMTP://mailer:hunter2secret@mail.example.com']] as const) {
      let message = '';
      try {
        loadConfig({ [env]: value });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(`invalid configuration ${env}=`);
      expect(message).not.toContain('hunter2secret');
    }
  });

  it('HOSTPAY_MAIL_FROM must be one plain address: a display name or a bare host stops the start, naming the variable', () => {
    for (const bad of [
      'Shop <billing@pay.example.com>',
      'billing@localhost',
      'billing',
      'a@b.example.com,c@d.example.com',
    ])
      expect(() => loadConfig({ HOSTPAY_MAIL_FROM: bad }), bad).toThrow(
        /invalid configuration HOSTPAY_MAIL_FROM=.*billing@pay\.example\.com/,
      );
    expect(loadConfig({ HOSTPAY_MAIL_FROM: 'billing@pay.example.com' }).mailFrom).toBe('billing@pay.example.com');
    expect(loadConfig({}).mailFrom).toBe('');
  });

  it('STARTTLS is required unless the host is loopback', () => {
    expect(['127.0.0.1', 'localhost', '::1', '[::1]', '127.8.9.10'].every(isLoopbackHost)).toBe(true);
    expect(['mail.example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'].some(isLoopbackHost)).toBe(false);
    expect(smtpUrlRefusal('http://mail.example.com')).toMatch(/smtp/);
    expect(smtpUrlRefusal('smtps://mail.example.com:465')).toBeNull();
  });

  it('an address is one addr-spec of at most 254 characters without CR, LF, comma or display name', () => {
    expect(checkEmail('a.b+c@example.co.uk').ok).toBe(true);
    for (const bad of [
      '',
      'a',
      'a@b',
      'a@@b.com',
      'A <a@b.com>',
      'a@b.com,c@d.com',
      'a@b.com\r\nBcc: x@y.com',
      'a b@c.com',
      '"a"@b.com',
      `${'a'.repeat(250)}@b.com`,
    ])
      expect(checkEmail(bad).ok, bad).toBe(false);
  });

  it('HTML is escaped and header text made one line', () => {
    expect(escapeHtml(`<script>"&'</script>`)).toBe('&lt;script&gt;&quot;&amp;&#39;&lt;/script&gt;');
    expect(oneLine('a\r\nBcc: b\u2028c\td')).toBe('a Bcc: b c d');
  });
});
