import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from './http-helpers/requests.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * The curl examples of the docs sign merchant requests as the server accepts them: signature
 * version 2 (`<ts>.<METHOD>.<path>.<body>` with `signature-version: 2`), since every merchant
 * route but three refuses version 1. docs/checkout.md's example is run as written.
 */
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
const shellBlocks = (md: string): string[] => [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const SIGNING = /printf '([^']*)' ((?:"[^"]*"|\S+)(?: (?:"[^"]*"|\S+))*) \| openssl dgst -sha256 -hmac/;

describe('every signing example in docs/*.md signs version 2', () => {
  const examples = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .flatMap((file) =>
      shellBlocks(readFileSync(`${DOCS}${file}`, 'utf8'))
        .filter((block) => block.includes('openssl dgst -sha256 -hmac'))
        .map((block) => ({ file, block })),
    );

  it('finds the examples (checkout.md, payouts.md)', () => {
    expect(new Set(examples.map((e) => e.file))).toEqual(new Set(['checkout.md', 'payouts.md']));
  });

  it.each(examples)('$file: the method and path are signed, and signature-version: 2 is sent', ({ block }) => {
    const format = SIGNING.exec(block)?.[1];
    expect(format, block).toMatch(/^%s\.[A-Z]+\.%s\.%s$/);
    expect(block).toContain("-H 'signature-version: 2'");
  });
});

describe("docs/checkout.md's curl example, run as written", () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture();
  });
  afterAll(() => fx.close());

  it('creates the checkout (201)', async () => {
    const block = shellBlocks(readFileSync(`${DOCS}checkout.md`, 'utf8')).find((b) => b.includes('openssl dgst'))!;
    const body = /^BODY='([^']*)'$/m.exec(block)?.[1];
    const [, format = '', args = ''] = SIGNING.exec(block) ?? [];
    const url = /curl -s http:\/\/127\.0\.0\.1:8080(\S+)/.exec(block)?.[1];
    const idempotencyKey = /-H 'idempotency-key: ([^']+)'/.exec(block)?.[1];
    expect(
      [body, url, idempotencyKey].every((v) => v !== undefined),
      block,
    ).toBe(true);
    const key = await fx.createKey(fx.demo.merchantId);
    const ts = String(Math.floor(fx.now() / 1000));
    // printf: each %s takes the next argument, the shell's variables replaced by their values.
    const values = args
      .split(' ')
      .map((a) => a.replace(/^"|"$/g, ''))
      .map((a) => (a === '$TS' ? ts : a === '$BODY' ? body! : a));
    let i = 0;
    const signed = format.replace(/%s/g, () => values[i++] ?? '');
    const signature = createHmac('sha256', key.apiSecret).update(signed).digest('hex');
    const res = await fx.app.inject({
      method: 'POST',
      url: url!,
      headers: {
        'api-key': key.apiKey,
        timestamp: ts,
        signature,
        'signature-version': '2',
        authorization: `Bearer ${await issueToken(fx, key)}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey!,
      },
      payload: body!,
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
