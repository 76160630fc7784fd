import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for the mail tests (smtp-server), whose answers a test chooses:
 * per RCPT TO and per DATA, an error with an SMTP code, or the connection dropped mid-message.
 * Every accepted message is parsed with mailparser.
 */
export interface Received {
  mail: ParsedMail;
  raw: string;
  envelope: { from: string; to: string[] };
  /** The session was TLS (smtps, or upgraded with STARTTLS). */
  secure: boolean;
  user: string | null;
}

export type Answer = 'ok' | { code: number; message: string } | 'drop';

export interface Receiver {
  port: number;
  url: string;
  received: Received[];
  /** What the next RCPT TOs and DATAs answer, in order; then 'ok'. */
  rcpt: Answer[];
  data: Answer[];
  auths: string[];
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), made for the test. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fail = (a: { code: number; message: string }) => Object.assign(new Error(a.message), { responseCode: a.code });

export async function startReceiver(
  opts: { tls?: { key: string; cert: string }; secure?: boolean; auth?: boolean } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const rcpt: Answer[] = [];
  const data: Answer[] = [];
  const auths: string[] = [];
  const sockets = new Set<Socket>();
  const options: SMTPServerOptions = {
    secure: opts.secure ?? false,
    // Without a certificate of the test's, no STARTTLS (smtp-server's own built-in certificate has expired).
    ...(opts.tls === undefined
      ? { disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'] }
      : { key: opts.tls.key, cert: opts.tls.cert, ...(opts.auth ? {} : { disabledCommands: ['AUTH'] }) }),
    ...(opts.tls === undefined && opts.auth ? { allowInsecureAuth: true } : {}),
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      auths.push(auth.username ?? '');
      cb(null, { user: auth.username });
    },
    onRcptTo(_address, _session, cb) {
      const a = rcpt.shift() ?? 'ok';
      if (a === 'ok') return cb();
      if (a === 'drop') {
        for (const s of sockets) s.destroy();
        return;
      }
      cb(fail(a));
    },
    onData(stream, session: SMTPServerSession, cb) {
      const a = data.shift() ?? 'ok';
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        chunks.push(c);
        // Gone mid-message: the connection ends after the first part of the body.
        if (a === 'drop') for (const s of sockets) s.destroy();
      });
      stream.on('end', async () => {
        if (a === 'drop') return;
        if (a !== 'ok') return cb(fail(a));
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          mail: await simpleParser(raw),
          raw,
          envelope: {
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
        });
        cb();
      });
    },
  };
  const server = new SMTPServer(options);
  (server as unknown as { server: { on(e: 'connection', f: (s: Socket) => void): void } }).server.on(
    'connection',
    (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    },
  );
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `${opts.secure ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    received,
    rcpt,
    data,
    auths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
