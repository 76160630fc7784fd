import { describe, expect, it } from 'vitest';
import { sign, signV2 } from '@hostpay/protocol';
import { run } from '../src/program.js';
import { shellQuote } from '../src/shell-quote.js';
import { hostpay, lines, memoryIo, sh } from './helpers.js';

const SECRET = "sk_it's $HOME `x` \\ secret";
const CREDS = {
  HOSTPAY_API_KEY: 'hp_test',
  HOSTPAY_API_SECRET: SECRET,
  HOSTPAY_TOKEN: 'tok.en',
  HOSTPAY_BASE_URL: 'http://127.0.0.1:8080/',
};

/** The argv a POSIX shell builds from a printed command: `curl` swapped for printf, one arg a line. */
async function shellArgv(command: string): Promise<string[]> {
  expect(command.startsWith('curl ')).toBe(true);
  const r = await sh(`printf '%s\\n' ${command.slice('curl '.length)}`);
  expect(r.code, r.stderr).toBe(0);
  return lines(r.stdout);
}

describe('hostpay curl', () => {
  it('prints one shell-safe curl command whose signature verifies (real bin, credentials from env)', async () => {
    const path = "/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT&note=it's";
    const before = Math.floor(Date.now() / 1000);
    const r = await hostpay(['curl', path], CREDS);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toHaveLength(1);

    const argv = await shellArgv(r.stdout.trim());
    const [flags, url, ...headerArgs] = argv;
    expect(flags).toBe('-sS');
    expect(url).toBe(`http://127.0.0.1:8080${path}`);
    const headers = Object.fromEntries(
      headerArgs.filter((_, i) => i % 2 === 1).map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 2)]),
    );
    expect(headerArgs.filter((_, i) => i % 2 === 0)).toEqual(['-H', '-H', '-H', '-H', '-H']);
    expect(headers['api-key']).toBe('hp_test');
    expect(headers['Authorization']).toBe('Bearer tok.en');
    const timestamp = String(headers['timestamp']);
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(timestamp)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    // Version 2 by default: `<timestamp>.GET.<canonical path?query>.` (empty body).
    expect(headers['signature-version']).toBe('2');
    expect(headers['signature']).toBe(signV2(SECRET, timestamp, 'GET', path));
  });

  it('--json gives the command, URL and headers as one document; flags win over env', async () => {
    const io = memoryIo(CREDS);
    expect(
      await run(
        ['curl', 'api/v1/cp/wallets', '--api-key', 'hp_flag', '--base-url', 'https://pay.example.com/base', '--json'],
        io,
      ),
    ).toBe(0);
    const doc = JSON.parse(io.out) as { command: string; url: string; headers: Record<string, string> };
    expect(lines(io.out)).toHaveLength(1);
    expect(doc.url).toBe('https://pay.example.com/base/api/v1/cp/wallets');
    expect(doc.headers['api-key']).toBe('hp_flag');
    // The path prefix of the base URL is part of what the server receives, so it is signed.
    expect(doc.headers['signature']).toBe(
      signV2(SECRET, String(doc.headers['timestamp']), 'GET', '/base/api/v1/cp/wallets'),
    );
    expect(doc.command).toContain(shellQuote(`signature: ${doc.headers['signature']}`));
  });

  it('--signature-version 1 (or HOSTPAY_SIGNATURE_VERSION=1) signs `<timestamp>.<body>` without the version header', async () => {
    for (const [args, env] of [
      [['--signature-version', '1'], CREDS],
      [[], { ...CREDS, HOSTPAY_SIGNATURE_VERSION: '1' }],
    ] as const) {
      const io = memoryIo(env);
      expect(await run(['curl', '/api/v1/cp/wallets', '--json', ...args], io)).toBe(0);
      const doc = JSON.parse(io.out) as { headers: Record<string, string> };
      expect(doc.headers['signature-version']).toBeUndefined();
      expect(doc.headers['signature']).toBe(sign(SECRET, String(doc.headers['timestamp']), ''));
    }
    const io = memoryIo(CREDS);
    expect(await run(['curl', '/api/v1/cp/wallets', '--signature-version', '3'], io)).not.toBe(0);
    expect(io.err).toContain('must be 1 or 2');
  });

  it('warns (one line) and leaves out Authorization when there is no token', async () => {
    const io = memoryIo({ HOSTPAY_API_KEY: 'hp_test', HOSTPAY_API_SECRET: 's' });
    expect(await run(['curl', '/api/v1/cp/wallets'], io)).toBe(0);
    expect(lines(io.err)).toEqual([expect.stringMatching(/^hostpay: warning: no bearer token/)]);
    expect(io.out).not.toContain('Authorization');
    expect(io.out).toContain('http://127.0.0.1:8080/api/v1/cp/wallets');
  });

  it.each([
    ['plain', 'plain'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['?&$`\\', "'?&$`\\'"],
    ['', "''"],
  ])('shellQuote(%j) = %s', (arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
  });
});
