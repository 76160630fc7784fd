import { CHECKOUT_STATUS_VALUES, DECIMAL_FORMAT } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCaller, OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError } from './http-helpers/requests.js';
import { merchantCall } from './http-helpers/webhooks.js';

/**
 * Query parameters as the document declares them and as the server reads them: whole numbers
 * are `integer` with their bounds (and the server's answer outside them is the documented
 * INVALID_QUERY envelope), the checkout status filter is an enum, time filters are
 * `format: date-time`, and every JSON number that holds an exact decimal says so (`format: decimal`).
 */
type Schema = Record<string, unknown>;
type Parameter = { in: string; name: string; schema: Schema };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[] }>>; components: unknown };

let fx: HttpFixture;
let doc: Doc;
const C = '/api/v1/cp/psp/hosted-pay';
const V = '/api/v1/cp/events';
const W = '/api/v1/cp/webhook-endpoints';

beforeAll(async () => {
  fx = await createFixture({ adminTokens: OPERATOR_TOKENS, sandbox: true });
  await configureChains(fx.services);
  doc = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<Doc>();
});
afterAll(() => fx.close());

/** Every query parameter of the document with `METHOD path` of its operation. */
const queryParameters = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ where: `${method.toUpperCase()} ${path}`, ...p })),
    ),
  );
const parameter = (method: string, path: string, name: string) =>
  doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'query' && p.name === name)?.schema;

describe('the document', () => {
  it('declares limit, afterSequence and maxSeconds as integers with their bounds, never as digit strings', () => {
    const limits = queryParameters().filter((p) => p.name === 'limit');
    expect(limits.length).toBeGreaterThan(10);
    // Search answers at most 50 hits (spec/commerce.md); every list pages up to 200.
    for (const p of limits)
      expect(p.schema, p.where).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: p.where.includes('/search') ? 50 : 200,
      });
    for (const path of [V, `${V}/stream`])
      expect(parameter('get', path, 'afterSequence')).toEqual({
        type: 'integer',
        minimum: 0,
        maximum: 999999999999999,
      });
    expect(parameter('get', `${V}/stream`, 'maxSeconds')).toEqual({ type: 'integer', minimum: 0, maximum: 3600 });
    const digitStrings = queryParameters().filter(
      (p) => p.schema.type === 'string' && /^\^\[0-9\]\{[0-9,]+\}\$$/.test(String(p.schema.pattern)),
    );
    expect(digitStrings.map((p) => `${p.where} ${p.name}`)).toEqual([]);
  });

  it('the checkout status filter is an enum of the statuses; the time filters are date-time', () => {
    for (const path of [C, '/admin/v1/checkouts']) {
      expect(parameter('get', path, 'status'), path).toEqual({ type: 'string', enum: [...CHECKOUT_STATUS_VALUES] });
      for (const name of ['createdFrom', 'createdTo'])
        expect(parameter('get', path, name), `${path} ${name}`).toMatchObject({ type: 'string', format: 'date-time' });
    }
  });

  it('every JSON number is marked: `format: decimal` (an exact decimal) or `format: double` (a float)', () => {
    const unmarked: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Schema;
      if (schema.type === 'number' && schema.format !== DECIMAL_FORMAT && schema.format !== 'double')
        unmarked.push(where);
      for (const [k, v] of Object.entries(schema)) walk(v, `${where}/${k}`);
    };
    walk(doc, '#');
    expect(unmarked).toEqual([]);
    const amount = (doc.components as { schemas: Record<string, { properties: Record<string, Schema> }> }).schemas
      .Checkout?.properties.amount;
    expect(amount).toMatchObject({ type: 'number', format: 'decimal' });
    // The one float: a delivery success ratio.
    expect(JSON.stringify(doc).match(/"format":"double"/g)).toHaveLength(2);
  });
});

describe('the server reads them as documented', () => {
  const get = (url: string) => merchantCall(fx, fx.demo, 'GET', url);
  const admin = adminCaller(() => fx.app);
  const refused = async (url: string, parameter: string, expected: string, call = get) => {
    const envelope = expectError(await call(url), 400, 'INVALID_QUERY');
    expect(envelope.error.details).toEqual({ parameter });
    expect(envelope.message).toContain(expected);
  };

  it('limit: whole numbers from 1 to 200, and the page has that many items at most', async () => {
    for (let i = 0; i < 3; i++)
      expect((await checkoutCall(fx, fx.demo, 'POST', C, { amount: '10', currency: 'EUR' })).statusCode).toBe(201);
    for (const bad of ['0', '201', '1.5', '1e2', 'abc', '-1', '', '99999999999999999999'])
      for (const path of [C, V, W])
        await refused(`${path}?limit=${bad}`, 'limit', 'expected a whole number from 1 to 200');
    await refused('/merchants?limit=0', 'limit', 'expected a whole number from 1 to 200', (url) => admin('GET', url));
    const page = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode, res.body).toBe(200);
      return (JSON.parse(res.body) as { result: unknown[] }).result;
    };
    expect(page(await get(`${C}?limit=2`))).toHaveLength(2);
    expect(page(await get(`${C}?limit=002`))).toHaveLength(2);
    expect(page(await get(`${C}?limit=200`)).length).toBeGreaterThanOrEqual(3);
    expect(page(await get(`${V}?limit=1`))).toHaveLength(1);
  });

  it('afterSequence and maxSeconds: whole numbers in their ranges', async () => {
    for (const path of [V, `${V}/stream`])
      for (const bad of ['-1', 'abc', '1.0', '1000000000000000'])
        await refused(
          `${path}?afterSequence=${bad}${path === V ? '' : '&maxSeconds=0'}`,
          'afterSequence',
          'expected a whole number from 0 to 999999999999999',
        );
    for (const bad of ['3601', '-1', '1.5', 'soon'])
      await refused(`${V}/stream?maxSeconds=${bad}`, 'maxSeconds', 'expected a whole number from 0 to 3600');
    const newest = JSON.parse((await get(`${V}?limit=1`)).body) as { result: { sequence: number }[] };
    const after = newest.result[0]?.sequence ?? 0;
    const listed = JSON.parse((await get(`${V}?afterSequence=${after - 1}`)).body) as { result: unknown[] };
    expect(listed.result).toHaveLength(1);
    const stream = await get(`${V}/stream?afterSequence=${after - 1}&maxSeconds=0`);
    expect(stream.statusCode, stream.body).toBe(200);
    expect(stream.body.match(/^id: /gm)).toHaveLength(1);
  });

  it('status: one of the statuses; createdFrom/createdTo: full RFC 3339 times', async () => {
    await refused(`${C}?status=lost`, 'status', `expected one of ${CHECKOUT_STATUS_VALUES.join(', ')}`);
    await refused('/checkouts?status=paid', 'status', 'expected one of open, underpaid', (url) => admin('GET', url));
    for (const bad of ['2027-01-01', 'yesterday', '2027-01-01T00:00'])
      await refused(`${C}?createdFrom=${bad}`, 'createdFrom', 'a full ISO 8601 time with seconds and an offset');
    await refused('/checkouts?createdTo=2027-13-01T00:00:00Z', 'createdTo', 'a full ISO 8601 time', (url) =>
      admin('GET', url),
    );
    const open = await get(`${C}?status=open&createdFrom=2020-01-01T00:00:00Z&createdTo=2999-01-01T02:00:00%2B02:00`);
    expect(open.statusCode, open.body).toBe(200);
    const items = (JSON.parse(open.body) as { result: { status: string }[] }).result;
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((c) => c.status))).toEqual(new Set(['open']));
    const none = await get(`${C}?createdTo=2020-01-01T00:00:00Z`);
    expect((JSON.parse(none.body) as { result: unknown[] }).result).toEqual([]);
  });
});
