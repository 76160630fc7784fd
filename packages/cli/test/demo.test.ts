import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { authHeaders } from '../src/signed-request.js';
import { shellQuote } from '../src/shell-quote.js';
import { BIN, cleanEnv, hostpay, jsonSummary, lines, sh, tempDir } from './helpers.js';

const HAS_CURL = spawnSync('curl', ['--version']).status === 0;
const HOSTPAY = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;

interface Demo {
  child: ChildProcess;
  banner: string;
  field(label: string): string;
  exited: Promise<number | null>;
}

/**
 * `hostpay serve --demo` from a user's point of view: start it, read what it prints, paste the
 * printed lines into a shell, and stop it with SIGTERM.
 */
describe('serve --demo, from start to curl', () => {
  const data = tempDir();
  let running: Demo | undefined;
  let firstApiKey = '';
  let firstInvitation = '';

  /** The dashboard invitation printed in the banner: its token, and what the API says of it. */
  async function invitationOf(banner: string, baseUrl: string) {
    const link = /^ {2}(\S+\/dashboard\/invitation\/(\S+))$/m.exec(banner);
    if (!link) throw new Error(`no dashboard invitation in banner:\n${banner}`);
    expect(link[1]!.startsWith(`${baseUrl}/dashboard/invitation/`)).toBe(true);
    const token = link[2]!;
    const res = await fetch(`${baseUrl}/dashboard/api/invitations/${token}`);
    return { token, status: res.status, body: (await res.json()) as { result?: { email: string; role: string } } };
  }

  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = undefined;
  });
  afterAll(() => data.remove());

  function startDemo(): Promise<Demo> {
    const child = spawn(process.execPath, [BIN, 'serve', '--demo', '--port', '0', '--data-dir', data.dir], {
      env: cleanEnv({ HOSTPAY_LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 20 s; stderr: ${stderr}`)), 20_000);
      void exited.then((code) => reject(new Error(`serve exited with ${code}; stderr: ${stderr}`)));
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (!stdout.includes('Ctrl-C stops the server')) return;
        clearTimeout(timer);
        const field = (label: string): string => {
          const hit = new RegExp(`^ {2}${label} +(\\S+)`, 'm').exec(stdout);
          if (!hit?.[1]) throw new Error(`no "${label}" in banner:\n${stdout}`);
          return hit[1];
        };
        resolve((running = { child, banner: stdout, field, exited }));
      });
    });
  }

  /** Runs a printed `npx hostpay curl ... | sh` line after the printed export line, as pasted. */
  async function runPrinted(exportLine: string, request: string): Promise<unknown> {
    const local = request.replace(/^npx hostpay /, `${HOSTPAY} `);
    if (HAS_CURL) {
      const r = await sh(`${exportLine}\n${local}`);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    }
    // No curl here: let hostpay sign the same request and send it with fetch instead.
    const r = await sh(`${exportLine}\n${local.replace(/ \| sh$/, ' --json')}`);
    const { url, headers } = JSON.parse(r.stdout) as { url: string; headers: Record<string, string> };
    return (await fetch(url, { headers })).json();
  }

  it('first run: seeds the data, and the printed requests answer status:true', async () => {
    const demo = await startDemo();
    const url = /^hostpay sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(demo.banner)?.[1];
    expect(url, demo.banner).toBeDefined();
    expect(demo.banner).toContain('demo data created');
    expect(demo.field('API docs')).toBe(`${url}/docs`);
    firstApiKey = demo.field('API key');
    expect(firstApiKey).toMatch(/^hp_/);
    expect(demo.field('bearer token').split('.')).toHaveLength(3);
    expect(Date.parse(demo.field('expires'))).toBeGreaterThan(Date.now());

    const printed = lines(demo.banner).map((l) => l.trim());
    const exportLine = printed.find((l) => l.startsWith('export HOSTPAY_BASE_URL='));
    const requests = printed.filter((l) => l.startsWith('npx hostpay curl '));
    expect(exportLine).toBeDefined();
    expect(requests).toEqual([
      'npx hostpay curl /api/v1/cp/wallets | sh',
      "npx hostpay curl '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT' | sh",
    ]);

    const wallets = (await runPrinted(exportLine!, requests[0]!)) as { status: boolean; result: { asset: string }[] };
    expect(wallets.status).toBe(true);
    expect(wallets.result.map((w) => w.asset).sort()).toEqual(['BTC', 'ETH', 'TRX', 'USDT', 'USDT']);
    const fees = (await runPrinted(exportLine!, requests[1]!)) as {
      status: boolean;
      result: { originalCurrency: string };
    };
    expect(fees).toMatchObject({ status: true, result: { originalCurrency: 'USDT' } });
    expect((await fetch(`${url}/docs`)).status).toBe(200);

    // A ready demo checkout: its payment page answers, open, on this server's address.
    const page = printed.find((l) => l.startsWith(`${url}/pay/chk_`));
    expect(page, demo.banner).toBeDefined();
    const html = await fetch(page!);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toMatch(/Demo Shop[\s\S]*49\.9/);

    // The operator console: on in the demo, with a token of the data directory's own that signs in.
    expect(printed).toContain(`${url}/console`);
    const operatorToken = demo.field('operator token');
    expect((await fetch(`${url}/console`)).status).toBe(200);
    const signIn = await fetch(`${url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: operatorToken }),
    });
    expect(signIn.status).toBe(201);
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const review = await fetch(`${url}/admin/v1/checkouts?status=needs_review`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(((await review.json()) as { result: { items: unknown[] } }).result.items).toHaveLength(1);
    // Offline rate feed: the demo source priced BTC, ETH and TRX in EUR, USD and USDT at start, fresh.
    const rates = (await (
      await fetch(`${url}/admin/v1/rates`, { headers: { authorization: `Bearer ${operatorToken}` } })
    ).json()) as { result: { base: string; quote: string; source: string; stale: boolean; pinned: boolean }[] };
    const fed = rates.result
      .filter((r) => r.source === 'demo' && !r.pinned && !r.stale)
      .map((r) => `${r.base}/${r.quote}`);
    expect(fed.sort()).toEqual([
      'BTC/EUR',
      'BTC/USD',
      'BTC/USDT',
      'ETH/EUR',
      'ETH/USD',
      'ETH/USDT',
      'TRX/EUR',
      'TRX/USD',
      'TRX/USDT',
    ]);

    // The merchant dashboard: the demo owner is invited, and the printed link is live.
    const invitation = await invitationOf(demo.banner, url!);
    expect(invitation.status).toBe(200);
    expect(invitation.body.result).toMatchObject({ email: 'owner@demo.example', role: 'owner' });
    expect((await fetch(`${url}/dashboard/invitation/${invitation.token}`)).status).toBe(200);
    firstInvitation = invitation.token;

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  });

  it('second run: reuses the data (same API key); hostpay token works against it', async () => {
    const demo = await startDemo();
    expect(demo.banner).toContain('demo data reused');
    expect(demo.field('API key')).toBe(firstApiKey);

    const baseUrl = /listening on (\S+)/.exec(demo.banner)![1]!;
    const creds = { baseUrl, apiKey: demo.field('API key'), apiSecret: demo.field('API secret') };
    const token = await hostpay(['token', '--expires-in', '120'], {
      HOSTPAY_BASE_URL: baseUrl,
      HOSTPAY_API_KEY: creds.apiKey,
      HOSTPAY_API_SECRET: creds.apiSecret,
    });
    expect(token.code, token.stderr).toBe(0);
    expect(lines(token.stdout)).toHaveLength(1);
    expect(token.stderr).toMatch(/^hostpay: token expires at \S+ \(in 120 s\)/);

    // Not yet accepted: a fresh invitation, and the last one no longer works (its token was shown once).
    const invitation = await invitationOf(demo.banner, baseUrl);
    expect(invitation.status).toBe(200);
    expect(invitation.token).not.toBe(firstInvitation);
    expect((await fetch(`${baseUrl}/dashboard/api/invitations/${firstInvitation}`)).status).toBe(404);

    const res = await fetch(`${baseUrl}/api/v1/cp/wallets/`, {
      headers: authHeaders({ ...creds, token: token.stdout.trim() }),
    });
    expect(((await res.json()) as { status: boolean }).status).toBe(true);

    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
  });
});

describe('serve --demo in a terminal (stdout and stderr on one stream)', () => {
  const data = tempDir();
  afterAll(() => data.remove());

  it('prints the banner as one block: start-up log lines come after it, never inside it', async () => {
    const child = spawn('sh', ['-c', `exec ${HOSTPAY} serve --demo --port 0 --data-dir ${shellQuote(data.dir)} 2>&1`], {
      env: cleanEnv({ HOSTPAY_LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 20 s:\n${out}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // The banner's last line, then the held log lines (at least the token request's).
        if (/Ctrl-C stops the server[\s\S]*"msg"/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGTERM');
    await exited;
    const all = lines(out);
    const first = all.findIndex((l) => l.startsWith('hostpay sandbox listening on'));
    const last = all.findIndex((l) => l.includes('Ctrl-C stops the server'));
    expect(first, out).toBeGreaterThanOrEqual(0);
    expect(last).toBeGreaterThan(first);
    // Before the banner only plain lines (the new master key's warning); no log line up to its end.
    expect(
      all.slice(0, last + 1).filter((l) => l.startsWith('{')),
      out,
    ).toEqual([]);
    // The held lines were not lost: the token request of the banner is logged after it.
    expect(
      all.slice(last + 1).some((l) => l.includes('/api/v1/auth/token')),
      out,
    ).toBe(true);
  });
});

describe('serve --sandbox (a test deployment without demo data)', () => {
  const data = tempDir();
  afterAll(() => data.remove());

  it('says it is a sandbox in its start-up summary and on /healthz', async () => {
    const env = cleanEnv({ HOSTPAY_LOG_LEVEL: 'warn', HOSTPAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') });
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--sandbox', '--json', '--port', '0', '--data-dir', data.dir],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const summary = await jsonSummary<{ url: string; sandbox: boolean }>(child, 20_000);
      expect(summary.sandbox).toBe(true);
      const health = (await (await fetch(`${summary.url}/healthz`)).json()) as { result: { sandbox: boolean } };
      expect(health.result.sandbox).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
