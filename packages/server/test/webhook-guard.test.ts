import { describe, expect, it } from 'vitest';
import { addressKind } from '../src/outbound/addresses.js';
import { checkWebhookUrl, type Resolver } from '../src/outbound/guard.js';
import { WebhookSender } from '../src/features/webhooks/sender.js';
import { RETRY_DELAYS_MS, retryDelayMs } from '../src/features/webhooks/schedule.js';

/**
 * The SSRF guard: every spelling of a refused address is refused at creation (400 INVALID_URL),
 * and again when connecting, through a stub resolver (nothing here connects to a private or
 * public address: the only real traffic in these tests goes to loopback).
 */
const stub = (table: Record<string, string[]>): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const list = table[host];
    if (list === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
};
const resolver = stub({
  'public.example': ['93.184.216.34'],
  'private.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.1'],
  'meta.example': ['169.254.169.254'],
  'v6.example': ['2606:2800:220:1:248:1893:25c8:1946'],
  'mapped.example': ['::ffff:10.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
});
const prod = { sandbox: false, resolve: resolver };
const sandbox = { sandbox: true, resolve: resolver };

const refused = async (url: string, opts = prod) => {
  const err = await checkWebhookUrl(url, opts).then(
    () => null,
    (e: { code?: string; message: string }) => e,
  );
  expect(err?.code, `${url} should be refused`).toBe('INVALID_URL');
  return err!.message;
};

describe('address kinds', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:a00:1::', 'private'],
    ['[::1]', 'loopback'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
  ])('%s is %s', (ip, kind) => expect(addressKind(ip)).toBe(kind));
  it('names are not addresses', () => expect(addressKind('example.com')).toBeUndefined());
});

describe('at creation', () => {
  it.each([
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0x7f000001/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://127.0.0.1./',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[0:0:0:0:0:ffff:7f00:1]/',
    'https://localhost/',
    'https://localhost./',
    'https://10.0.0.1/',
    'https://192.168.1.1/',
    'https://172.16.5.4/',
    'https://100.64.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://224.0.0.1/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://private.example/',
    'https://mixed.example/',
    'https://meta.example/',
    'https://mapped.example/',
    'https://nowhere.example/',
  ])('%s is refused', async (url) => {
    await refused(url);
  });

  it('explains why', async () => {
    expect(await refused('https://0x7f000001/')).toContain('127.0.0.1 is a loopback address');
    expect(await refused('https://private.example/')).toContain('resolves to 10.1.2.3, a private address');
    expect(await refused('http://public.example/')).toContain('must use https');
    expect(await refused('ftp://public.example/')).toContain('must use https');
    expect(await refused('https://user:pw@public.example/')).toContain('credentials');
    expect(await refused('not a url')).toContain('absolute URL');
  });

  it('takes public https, and loopback (http too) only in a sandbox', async () => {
    expect((await checkWebhookUrl('https://public.example/hooks', prod)).href).toBe('https://public.example/hooks');
    expect((await checkWebhookUrl('https://v6.example/hooks', prod)).host).toBe('v6.example');
    expect((await checkWebhookUrl('https://93.184.216.34/x', prod)).host).toBe('93.184.216.34');
    await refused('http://127.0.0.1:3000/hooks');
    expect((await checkWebhookUrl('http://127.0.0.1:3000/hooks', sandbox)).href).toBe('http://127.0.0.1:3000/hooks');
    expect((await checkWebhookUrl('http://localhost:3000/hooks', sandbox)).href).toBe('http://localhost:3000/hooks');
    expect((await checkWebhookUrl('http://[::1]:3000/hooks', sandbox)).href).toBe('http://[::1]:3000/hooks');
    // A sandbox allows loopback, not private networks, and plain http only to loopback.
    await refused('https://10.0.0.1/', sandbox);
    await refused('http://public.example/', sandbox);
  });
});

describe('on every connection', () => {
  it('a name that resolves to a private address now (DNS rebinding) is never connected to', async () => {
    let answer = '93.184.216.34';
    const rebinding = Object.assign(async () => [{ address: answer, family: 4 }], {});
    expect((await checkWebhookUrl('https://rebind.example/hooks', { sandbox: false, resolve: rebinding })).host).toBe(
      'rebind.example',
    );
    answer = '10.0.0.7';
    const sender = new WebhookSender({ sandbox: false, resolve: rebinding });
    const result = await sender.send('https://rebind.example/hooks', {}, '{}', 2000);
    sender.close();
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^refused: rebind\.example resolves to 10\.0\.0\.7, a private address/);
  });

  it('a literal address is checked before connecting; plain http needs a sandbox', async () => {
    const sender = new WebhookSender(prod);
    expect((await sender.send('https://169.254.169.254/', {}, '{}', 2000)).error).toContain('metadata');
    expect((await sender.send('https://[::ffff:a00:1]/', {}, '{}', 2000)).error).toContain('private');
    expect((await sender.send('http://127.0.0.1:9/', {}, '{}', 2000)).error).toContain('refused');
    sender.close();
  });
});

describe('retry schedule', () => {
  it('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each within ±20 %, then none', () => {
    expect(RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    RETRY_DELAYS_MS.forEach((base, i) => {
      expect(retryDelayMs(i + 1, () => 0)).toBe(base * 0.8);
      expect(retryDelayMs(i + 1, () => 1)).toBe(base * 1.2);
      expect(retryDelayMs(i + 1, () => 0.5)).toBe(base);
    });
    expect(retryDelayMs(10)).toBeNull();
  });
});
