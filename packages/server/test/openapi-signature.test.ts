import { createHmac } from 'node:crypto';
import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { unixSeconds } from './http-helpers/requests.js';

/**
 * Issue 42 item 5: the OpenAPI document describes the signature the server requires. A red team
 * generated clients (openapi-typescript, @hey-api, orval) from a document that described only
 * version 1 and got 401 on the first write. Here the description and the `signature` scheme give
 * the version-2 string, every signed operation declares `signature-version`, the operations that
 * still take version 1 are named, and a client that follows only the document signs a token
 * request and a write that the server accepts.
 */
type Parameter = { in: string; name: string; required?: boolean; schema?: { enum?: string[] } };
type Operation = { security?: Record<string, unknown>[]; parameters?: Parameter[]; 'x-signature-versions'?: number[] };
interface Doc {
  info: { description: string };
  components: { securitySchemes: Record<string, { description: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const V2 = '<timestamp>.<METHOD>.<canonical path?query>.<body>';
const V1_OPERATIONS = [
  'GET /api/v1/cp/psp/hosted-pay/fees-preview',
  'GET /api/v1/cp/wallets',
  'GET /api/v1/cp/wallets/',
  'POST /api/v1/auth/token',
];

let fx: HttpFixture;
let doc: Doc;
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  doc = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<Doc>();
});
afterAll(() => fx.close());

function signedOperations(): { name: string; op: Operation }[] {
  const out: { name: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item))
      if (op.security?.some((r) => 'signature' in r)) out.push({ name: `${method.toUpperCase()} ${path}`, op });
  return out;
}
const versionHeader = (op: Operation) =>
  op.parameters?.find((p) => p.in === 'header' && p.name === 'signature-version');

describe('the OpenAPI document describes signature version 2', () => {
  it('info.description and the signature scheme give the version-2 string; version 1 only as deprecated', () => {
    expect(doc.info.description).toContain(V2);
    expect(doc.info.description).toContain('signature-version: 2');
    expect(doc.info.description).toMatch(/## Migrating from signature version 1/);
    expect(doc.info.description).toContain('id="migrating-from-signature-version-1"');
    const scheme = doc.components.securitySchemes.signature!.description;
    expect(scheme).toContain(V2);
    expect(scheme).toContain('signature-version: 2');
    // The old text, which told generated clients to sign `<timestamp>.<body>`, is gone.
    expect(scheme).not.toMatch(/^Lowercase hex HMAC-SHA256 of `<timestamp>\.<body>`/);
    expect(doc.info.description).not.toContain('HMAC-SHA256 of `<timestamp>.<body>`');
  });

  it('every signed operation declares signature-version: required "2", or optional on the four that take version 1', () => {
    const signed = signedOperations();
    expect(signed.length).toBeGreaterThan(30);
    const v1: string[] = [];
    for (const { name, op } of signed) {
      const header = versionHeader(op);
      expect(header, name).toBeDefined();
      if (op['x-signature-versions']?.includes(1)) {
        v1.push(name);
        expect(header, name).toMatchObject({ required: false, schema: { enum: ['1', '2'] } });
        expect(op['x-signature-versions'], name).toEqual([1, 2]);
      } else {
        expect(header, name).toMatchObject({ required: true, schema: { enum: ['2'] } });
        expect(op['x-signature-versions'], name).toEqual([2]);
      }
    }
    expect(v1.sort()).toEqual(V1_OPERATIONS);
    // The description names the same operations.
    for (const op of V1_OPERATIONS) expect(doc.info.description).toContain(`\`${op}\``);
    // Unsigned operations (public, admin) declare no such header.
    const time = doc.paths['/api/v1/time']!.get!;
    expect(versionHeader(time)).toBeUndefined();
  });
});

describe('a client that follows only the document', () => {
  /**
   * Signs as the document says: the template of the `signature` scheme filled in, every header
   * parameter that is required with a single allowed value sent with that value, and
   * `signature-version: 2` where the operation allows it.
   */
  function documentedRequest(key: TestKey, method: string, path: string, body: string, bearer?: string) {
    const op = doc.paths[path]![method.toLowerCase()]!;
    const template = /`(<timestamp>[^`]*)`/.exec(doc.components.securitySchemes.signature!.description)![1]!;
    const timestamp = unixSeconds(fx.now());
    const text = template
      .replace('<timestamp>', timestamp)
      .replace('<METHOD>', method.toUpperCase())
      .replace('<canonical path?query>', path)
      .replace('<body>', body);
    const headers: Record<string, string> = {
      'api-key': key.apiKey,
      timestamp,
      signature: createHmac('sha256', key.apiSecret).update(text).digest('hex'),
    };
    for (const p of op.parameters ?? []) {
      if (p.in !== 'header') continue;
      if (p.required === true && p.schema?.enum?.length === 1) headers[p.name] = p.schema.enum[0]!;
      // The description: "every merchant request carries `signature-version: 2`", also where 1 is still allowed.
      else if (p.name === 'signature-version' && p.schema?.enum?.includes('2')) headers[p.name] = '2';
    }
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    if (body !== '') headers['content-type'] = 'application/json';
    return fx.app.inject({ method: method as 'POST', url: path, headers, ...(body === '' ? {} : { payload: body }) });
  }

  it('gets a token and makes its first write (a webhook endpoint), both accepted', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
    const token = await documentedRequest(key, 'POST', '/api/v1/auth/token', '{"expiresIn":600}');
    expect(token.statusCode, token.body).toBe(200);
    const bearer = token.json<{ result: { accessToken: string } }>().result.accessToken;
    const write = await documentedRequest(
      key,
      'POST',
      '/api/v1/cp/webhook-endpoints',
      '{"url":"http://127.0.0.1:9/hooks","description":"generated client"}',
      bearer,
    );
    expect(write.statusCode, write.body).toBe(201);
    // What the old document described (`<timestamp>.<body>`, no signature-version) is refused there.
    const timestamp = unixSeconds(fx.now());
    const body = '{"url":"http://127.0.0.1:9/hooks","description":"old document"}';
    const old = await fx.app.inject({
      method: 'POST',
      url: '/api/v1/cp/webhook-endpoints',
      headers: {
        'api-key': key.apiKey,
        timestamp,
        signature: createHmac('sha256', key.apiSecret).update(`${timestamp}.${body}`).digest('hex'),
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
      },
      payload: body,
    });
    expect(old.statusCode).toBe(401);
    expect(old.json<{ error: { code: string } }>().error.code).toBe('SIGNATURE_V2_REQUIRED');
  });
});
