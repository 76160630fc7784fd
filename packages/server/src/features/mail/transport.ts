import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type Nodemailer from 'nodemailer';
import { isLoopbackHost } from '../checkouts/create-input.js';

/** nodemailer, loaded by the first transport made: a server without HOSTPAY_SMTP_URL never loads it (78 ms at start). */
const loadNodemailer = (): typeof Nodemailer => createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;

/**
 * The SMTP transport (docs/mail.md, "Configuration"), over nodemailer. `smtp://` upgrades with
 * STARTTLS and refuses to go on (so never sends AUTH or the message in clear) when the server
 * does not offer it, except to a loopback host; `smtps://` is TLS from the first byte. The URL
 * carries the credentials: it is never logged, and errors name the host only.
 */
export interface MailMessage {
  messageId: string;
  from: { name: string; address: string };
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** How a send ended: sent, or refused for now (retry), or for good (recorded), `bounce` when the recipient was refused. */
export type SendResult =
  | { ok: true; response: string }
  | { ok: false; permanent: boolean; bounce: boolean; error: string };

export interface MailTransport {
  /** `host:port`, for messages. */
  readonly where: string;
  send(message: MailMessage): Promise<SendResult>;
  close(): void;
}

/** Options a deployment (or a test) adds: the CA of a private mail server, timeouts. */
export interface TransportOptions {
  tls?: ConnectionOptions;
  /** true: STARTTLS required even to a loopback host (a local TLS relay). Default: required unless loopback. */
  requireTls?: boolean;
  timeoutMs?: number;
}

/** Why a HOSTPAY_SMTP_URL is refused, or null. */
export function smtpUrlRefusal(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start smtp:// or smtps://';
  if (url.hostname === '') return 'names no host';
  return null;
}

export function smtpTransport(urlText: string, opts: TransportOptions = {}): MailTransport {
  const refusal = smtpUrlRefusal(urlText);
  if (refusal !== null) throw new Error(`HOSTPAY_SMTP_URL ${refusal}`);
  const url = new URL(urlText);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const timeout = opts.timeoutMs ?? 30_000;
  const transporter = loadNodemailer().createTransport({
    host,
    port,
    secure,
    // STARTTLS or nothing, but to this machine (a local relay often has no certificate).
    requireTLS: !secure && (opts.requireTls ?? !isLoopbackHost(host)),
    ...(url.username === ''
      ? {}
      : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    tls: { servername: isIP(host) === 0 ? host : undefined, ...opts.tls },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
    debug: false,
  });
  const where = `${host}:${port}`;
  return {
    where,
    async send(m) {
      try {
        const info = await transporter.sendMail({
          messageId: m.messageId,
          from: m.from,
          to: m.to,
          ...(m.replyTo === null ? {} : { replyTo: m.replyTo }),
          subject: m.subject,
          text: m.text,
          html: m.html,
          headers: { 'Auto-Submitted': 'auto-generated' },
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        if (info.rejected.length > 0)
          return { ok: false, permanent: true, bounce: true, error: `refused: ${info.response}` };
        return { ok: true, response: String(info.response ?? '') };
      } catch (e) {
        return classify(e, where);
      }
    },
    close: () => transporter.close(),
  };
}

/**
 * A nodemailer error as a SendResult: 5xx is permanent, the rest temporary. A bounce is a 5xx to
 * RCPT TO only: nodemailer's EENVELOPE also covers MAIL FROM (our own sender refused), which says
 * nothing about the recipient and must not suppress mail to it.
 */
export function classify(e: unknown, where: string): SendResult {
  const err = e as { responseCode?: number; command?: string; code?: string; response?: string; message?: string };
  const code = typeof err.responseCode === 'number' ? err.responseCode : null;
  const permanent = code !== null && code >= 500 && code < 600;
  const bounce = permanent && /RCPT/i.test(err.command ?? '');
  const said = err.response ?? err.message ?? String(e);
  // The message of a connection error may repeat the host; it never holds the URL's credentials.
  const error = `${where}: ${err.code ?? 'error'}${code === null ? '' : ` ${code}`}: ${said}`.slice(0, 500);
  return { ok: false, permanent, bounce, error };
}
