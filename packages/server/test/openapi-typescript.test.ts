import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture } from './http-helpers/fixture.js';

/**
 * The served document through the most common TypeScript generator, openapi-typescript (its
 * programmatic API): types are generated into a temp dir, and small merchant programs (create a
 * checkout and read the answer, list with filters, read webhook events) type-check against them
 * with zero diagnostics, while programs with a deliberate mistake (a number for a decimal string,
 * an unknown status, a text page size, the wrong object for an event type) each get one. All the
 * programs are checked in one compiler run: one program is ~10 s on a loaded machine.
 */
const HEADER = `import type { components, paths, webhooks } from './SCHEMA';
type Create = paths['/api/v1/cp/psp/hosted-pay']['post'];
type CreateBody = Create['requestBody']['content']['application/json'];
type Created = Create['responses'][201]['content']['application/json'];
type ListQuery = NonNullable<paths['/api/v1/cp/psp/hosted-pay']['get']['parameters']['query']>;
type PreviewQuery = paths['/api/v1/cp/psp/hosted-pay/fees-preview']['get']['parameters']['query'];
type Checkout = components['schemas']['Checkout'];
type Event = components['schemas']['Event'];
type Hook<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];
type CreateHeaders = Create['parameters']['header'];
type WalletHeaders = NonNullable<paths['/api/v1/cp/wallets']['get']['parameters']['header']>;
`;

/**
 * Signing version 2 with nothing but the generated types: the write's headers must name
 * `signature-version: 2` (the type requires it), the wallet list takes 1 or 2 or none.
 */
const SIGNING = `
declare function hmacSha256Hex(secret: string, text: string): string;
function signedHeaders(secret: string, method: string, target: string, body: string): CreateHeaders & Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = hmacSha256Hex(secret, \`\${timestamp}.\${method}.\${target}.\${body}\`);
  return { 'signature-version': '2', 'api-key': 'hp_x', timestamp, signature };
}
const write: CreateHeaders = signedHeaders('s', 'POST', '/api/v1/cp/psp/hosted-pay', '{}');
const legacy: WalletHeaders = {};
const current: WalletHeaders = { 'signature-version': '2' };
console.log(write, legacy, current);
`;

const CHECKOUT = `
const body: CreateBody = {
  amount: '25.50',
  currency: 'EUR',
  orderId: 'o-1',
  paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
  metadata: { cart: '7' },
};
const alsoNumber: CreateBody = { amount: 25.5, currency: 'EUR' };
declare const answer: Created;
const checkout: Checkout = answer.result;
const status: 'open' | 'underpaid' | 'processing' | 'settled' | 'expired' | 'canceled' | 'needs_review' | 'invalid' =
  checkout.status;
const option = checkout.paymentOptions[0];
const address: string | undefined = option?.address;
const due: number | undefined = option?.amountDue;
const query: ListQuery = { limit: 50, status: 'settled', createdFrom: '2027-01-01T00:00:00Z' };
const preview: PreviewQuery = { amount: '99.95', currency: 'EUR' };
console.log(body, alsoNumber, status, address, due, query, preview);
`;

const EVENTS = `
declare const settled: Hook<'checkout.settled'>;
const paid: Checkout = settled.data.object;
const type: 'checkout.settled' = settled.type;
declare const event: Event;
if (event.type === 'wallet.balance_changed') {
  const balance: number = event.data.object.balance;
  const wallet: string = event.data.object.walletId;
  console.log(balance, wallet);
} else if (event.type === 'test.ping') {
  console.log(event.data.object.endpointId);
} else if (event.type === 'webhook_endpoint.disabled') {
  console.log(event.data.object.disabledReason);
} else if (
  event.type === 'payout.requested' ||
  event.type === 'payout.approved' ||
  event.type === 'payout.rejected' ||
  event.type === 'payout.canceled' ||
  event.type === 'payout.sent' ||
  event.type === 'payout.completed' ||
  event.type === 'payout.failed' ||
  event.type === 'refund.requested'
) {
  const payout: components['schemas']['Payout'] = event.data.object;
  console.log(payout.total, payout.refundOf);
} else if (event.type === 'payout_destination.added') {
  const address: string = event.data.object.address;
  console.log(address);
} else if (event.type === 'payout_destination.activated' || event.type === 'payout_destination.revoked') {
  console.log(event.data.object.status);
} else if (event.type === 'payment_link.created' || event.type === 'payment_link.updated') {
  const link: components['schemas']['PaymentLink'] = event.data.object;
  console.log(link.url, link.status);
} else if (
  event.type === 'invoice.finalized' ||
  event.type === 'invoice.partially_paid' ||
  event.type === 'invoice.paid' ||
  event.type === 'invoice.voided' ||
  event.type === 'invoice.marked_uncollectible'
) {
  const invoice: components['schemas']['Invoice'] = event.data.object;
  console.log(invoice.number, invoice.amountDue);
} else {
  const checkout: Checkout = event.data.object;
  console.log(checkout.status);
}
console.log(paid, type);
`;

/** Amounts read as an exact parser gives them: strings (types generated with the transform of docs/api.md). */
const EXACT = `
declare const checkout: Checkout;
const amount: string = checkout.amount;
const due: string | undefined = checkout.paymentOptions[0]?.amountDue;
declare const event: Event;
if (event.type === 'wallet.balance_changed') console.log(event.data.object.balance.padStart(3));
console.log(amount, due);
`;

/** Each mistake and (part of) the diagnostic it must get, so none passes for another reason. */
const MISTAKES: Record<string, [string, RegExp]> = {
  decimalStringAsNumber: [
    `const q: PreviewQuery = { amount: 99.95, currency: 'EUR' }; console.log(q);`,
    /Type 'number' is not assignable to type 'string'/,
  ],
  unknownStatus: [`const q: ListQuery = { status: 'paid' }; console.log(q);`, /Type '"paid"' is not assignable/],
  textPageSize: [
    `const q: ListQuery = { limit: '50' }; console.log(q);`,
    /Type 'string' is not assignable to type 'number'/,
  ],
  unknownBodyField: [
    `const b: CreateBody = { amount: '1', currency: 'EUR', price: '1' }; console.log(b);`,
    /'price' does not exist/,
  ],
  missingCurrency: [`const b: CreateBody = { amount: '1' }; console.log(b);`, /Property 'currency' is missing/],
  wrongEventObject: [
    `declare const e: Event;\nif (e.type === 'checkout.settled') console.log(e.data.object.balance);`,
    /Property 'balance' does not exist/,
  ],
  wrongEventType: [
    `declare const s: Hook<'checkout.settled'>; const t: 'checkout.created' = s.type; console.log(t);`,
    /Type '"checkout.settled"' is not assignable to type '"checkout.created"'/,
  ],
  versionOneOnAWrite: [
    `const h: CreateHeaders = { 'signature-version': '1' }; console.log(h);`,
    /Type '"1"' is not assignable to type '"2"'/,
  ],
  writeWithoutVersion: [`const h: CreateHeaders = {}; console.log(h);`, /'"?signature-version"?' is missing/],
  // The default output types decimals as numbers, so the exact program does not pass there.
  exactWithDefaultTypes: [EXACT, /Type 'number' is not assignable to type 'string'/],
};

let dir: string;
/** Program name -> its diagnostics. */
const found = new Map<string, string[]>();

beforeAll(async () => {
  const fx = await createFixture({});
  const res = await fx.app.inject({ method: 'GET', url: '/openapi.json' });
  await fx.close();
  expect(res.statusCode).toBe(200);
  const document = res.json<OpenAPI3>();
  dir = mkdtempSync(join(tmpdir(), 'hostpay-openapi-ts-'));
  writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(document)));
  const exact = await openapiTS(document, {
    transform: (schema) =>
      schema.format === 'decimal' ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword) : undefined,
  });
  writeFileSync(join(dir, 'exact-schema.ts'), astToString(exact));
  const programs: Record<string, [string, string]> = {
    checkout: ['schema', CHECKOUT],
    events: ['schema', EVENTS],
    exact: ['exact-schema', EXACT],
    signing: ['schema', SIGNING],
    ...Object.fromEntries(Object.entries(MISTAKES).map(([name, [body]]) => [name, ['schema', body]])),
  };
  const files = Object.entries(programs).map(([name, [schema, body]]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `${HEADER.replace('SCHEMA', schema)}${body}\nexport {};\n`);
    found.set(name, []);
    return file;
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file === undefined ? 'schema' : d.file.fileName.slice(dir.length + 1).replace(/\.ts$/, '');
    found.set(name, [...(found.get(name) ?? []), ts.flattenDiagnosticMessageText(d.messageText, '\n')]);
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('types generated by openapi-typescript from /openapi.json', () => {
  it('the generated files themselves have no errors', () => {
    expect(found.get('schema')).toBeUndefined();
    expect(found.get('exact-schema')).toBeUndefined();
  });

  it('type a merchant program that creates a checkout, reads the answer and lists with filters', () => {
    expect(found.get('checkout')).toEqual([]);
  });

  it('type webhook events: each entry its own body, and `Event` narrows on type', () => {
    expect(found.get('events')).toEqual([]);
  });

  it('with the transform of docs/api.md, `format: decimal` fields are strings, as an exact parser gives them', () => {
    expect(found.get('exact')).toEqual([]);
  });

  it('sign version 2: a write must send signature-version 2 (typed), the wallet list takes either (issue 42)', () => {
    expect(found.get('signing')).toEqual([]);
  });

  it('refuse programs with a mistake, each with a diagnostic', () => {
    for (const [name, [, expected]] of Object.entries(MISTAKES))
      expect(found.get(name)?.join('\n'), name).toMatch(expected);
  });
});
