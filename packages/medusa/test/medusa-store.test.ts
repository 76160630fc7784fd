import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HostpayClient } from '@hostpay/client';
import { Decimal } from '@hostpay/protocol';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWebhookEndpoint, expireSoon, type Sandbox, startSandbox } from './helpers/hostpay-sandbox.js';
import {
  clearRedis,
  createDatabase,
  freePort,
  installPackedProvider,
  medusaPrerequisites,
  type MedusaDatabase,
  type MedusaEnv,
  type MedusaServer,
  medusa,
  type Seed,
  seed,
  startMedusa,
  typecheckInStore,
} from './helpers/medusa-store.js';

/**
 * A real Medusa 2.x store (`medusa db:migrate`, `medusa exec`, `medusa start` on PostgreSQL and
 * Redis, from packages/medusa/integration) with @hostpay/medusa packed and installed into it, and
 * a real hostpay sandbox delivering its webhooks to Medusa's own webhook route. Nothing is mocked:
 * the storefront's calls go to Medusa's store API, the payer's to hostpay's sandbox.
 */
const PROVIDER = 'pp_hostpay_hostpay';
const ADMIN = { email: 'admin@shop.test', password: randomBytes(9).toString('base64url') };
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let sandbox: Sandbox;
let db: MedusaDatabase | undefined;
let store: MedusaServer | undefined;
let seeded: Seed;
let hostpay: HostpayClient;
let webhookSecret: string;
/** Names this run's database keys in Redis (session prefix and event queue). */
let runId: string;
/** Outside CI, a machine without the Medusa install, PostgreSQL or Redis skips this file with the reason printed. */
const missing = await medusaPrerequisites();

beforeAll(async () => {
  if (missing !== null) return;
  await installPackedProvider();
  sandbox = await startSandbox();
  hostpay = new HostpayClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret });
  const port = await freePort();
  webhookSecret = await addWebhookEndpoint(sandbox, `http://127.0.0.1:${port}/hooks/payment/hostpay_hostpay`);
  db = await createDatabase();
  runId = `medusa-test-${randomBytes(4).toString('hex')}`;
  const env: MedusaEnv = {
    databaseUrl: db.url,
    port,
    hostpayUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    apiSecret: sandbox.apiSecret,
    webhookSecret,
    redisPrefix: `${runId}:`,
  };
  await medusa(['db:migrate'], env);
  seeded = await seed(env, ADMIN);
  store = await startMedusa(env);
}, 600_000);

afterAll(async () => {
  await store?.stop();
  await db?.drop();
  if (runId) await clearRedis(runId);
  await sandbox?.close();
}, 60_000);

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${store!.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, text };
}
const storeApi = <T>(method: string, path: string, body?: unknown) =>
  call<T>(method, path, body, { 'x-publishable-api-key': seeded.publishableKey });
let adminToken: string | undefined;
async function adminApi<T>(method: string, path: string, body?: unknown) {
  if (!adminToken) {
    const login = await call<{ token: string }>('POST', '/auth/user/emailpass', ADMIN);
    expect(login.status, login.text).toBe(200);
    adminToken = login.body.token;
  }
  return call<T>(method, path, body, { authorization: `Bearer ${adminToken}` });
}

interface Session {
  id: string;
  provider_id: string;
  status: string;
  data: { checkout_id: string; url: string; session_id: string; amount: string; currency: string };
}

/** A storefront's checkout: a cart with two mugs (2 × 24.50 EUR), then a hostpay payment session. */
async function cartWithSession(): Promise<{ cartId: string; session: Session; collectionId: string }> {
  const cart = await storeApi<{ cart: { id: string; total: number } }>('POST', '/store/carts', {
    region_id: seeded.regionId,
    sales_channel_id: seeded.salesChannelId,
    email: 'payer@shop.test',
    items: [{ variant_id: seeded.variantId, quantity: 2 }],
  });
  expect(cart.status, cart.text).toBe(200);
  expect(cart.body.cart.total).toBe(49);
  const cartId = cart.body.cart.id;
  const pc = await storeApi<{ payment_collection: { id: string } }>('POST', '/store/payment-collections', {
    cart_id: cartId,
  });
  expect(pc.status, pc.text).toBe(200);
  const session = await newSession(pc.body.payment_collection.id);
  return { cartId, session, collectionId: pc.body.payment_collection.id };
}

async function newSession(collectionId: string): Promise<Session> {
  const res = await storeApi<{ payment_collection: { payment_sessions: Session[] } }>(
    'POST',
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: PROVIDER, data: { success_url: 'http://127.0.0.1/shop/order-placed' } },
  );
  expect(res.status, res.text).toBe(200);
  const sessions = res.body.payment_collection.payment_sessions.filter((s) => s.provider_id === PROVIDER);
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

/** Until Medusa has completed the cart (the webhook's work), then the order the storefront gets. */
async function completedOrder(cartId: string): Promise<{ id: string }> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const cart = await storeApi<{ cart: { completed_at: string | null } }>(
      'GET',
      `/store/carts/${cartId}?fields=id,completed_at`,
    );
    if (cart.body.cart?.completed_at) break;
    if (Date.now() > deadline) throw new Error(`cart ${cartId} not completed:\n${store!.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // The storefront, back from the hosted page, completes the cart: it gets the order made already.
  const done = await storeApi<{ type: string; order: { id: string } }>('POST', `/store/carts/${cartId}/complete`);
  expect(done.status, done.text).toBe(200);
  expect(done.body.type).toBe('order');
  return done.body.order;
}

interface AdminPayment {
  id: string;
  amount: number;
  captured_at: string | null;
  payment_session_id?: string;
  data: { checkout_id: string; refunds?: { kind: string; url?: string; amount: string; asset: string }[] };
}
async function orderPayments(orderId: string) {
  const res = await adminApi<{
    order: { payment_status: string; payment_collections: { payments: AdminPayment[] }[] };
  }>('GET', `/admin/orders/${orderId}?fields=id,payment_status,*payment_collections,*payment_collections.payments`);
  expect(res.status, res.text).toBe(200);
  return res.body.order;
}

/** The webhook decision the provider logged for a session (or a delivery), after `from`. */
// Generous: the whole suite shares two cores with Medusa in CI.
const logged = (pattern: RegExp, from: number) => store!.waitForLine(pattern, 150_000, from);

// Medusa handles a webhook 5 s after its route took it (its payment module's fixed delay): a
// payment's way from hostpay to an order takes several seconds.
describe.skipIf(missing !== null)(
  'hostpay as a Medusa payment provider, in a real Medusa store',
  { timeout: 300_000 },
  () => {
    let paidOrder: { id: string };
    let paidCheckout: string;

    it('cart → hostpay session → paid on the hosted page → webhook → order with its payment captured', async () => {
      // Medusa loaded the packed provider and offers it in the region.
      const providers = await storeApi<{ payment_providers: { id: string }[] }>(
        'GET',
        `/store/payment-providers?region_id=${seeded.regionId}`,
      );
      expect(providers.body.payment_providers.map((p) => p.id)).toContain(PROVIDER);
      const { cartId, session } = await cartWithSession();
      expect(session.status).toBe('pending');
      expect(session.data.url).toBe(`${sandbox.url}/pay/${session.data.checkout_id}`);
      const checkout = await hostpay.checkouts.get(session.data.checkout_id);
      expect(checkout).toMatchObject({ status: 'open', amount: '49', currency: 'EUR', orderId: session.id });
      expect(checkout.successUrl).toBe('http://127.0.0.1/shop/order-placed');
      // The storefront redirects the payer to the hosted page, which is there.
      expect((await fetch(session.data.url)).status).toBe(200);

      const from = store!.output().length;
      const paid = await hostpay.checkouts.simulatePayment(checkout.id, { asset: 'USDT', chain: 'TRON' });
      expect(paid.status).toBe('settled');
      await logged(new RegExp(`checkout\\.settled → captured for ${session.id}`), from);
      paidOrder = await completedOrder(cartId);
      paidCheckout = checkout.id;
      const order = await orderPayments(paidOrder.id);
      expect(order.payment_status).toBe('captured');
      const payments = order.payment_collections.flatMap((c) => c.payments);
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({ amount: 49, data: { checkout_id: checkout.id } });
      expect(payments[0]!.captured_at).not.toBeNull();
    });

    it("a refund from Medusa's admin API creates a hostpay refund (a link the payer gives an address on)", async () => {
      const before = await orderPayments(paidOrder.id);
      const payment = before.payment_collections.flatMap((c) => c.payments)[0]!;
      const res = await adminApi<{ payment: AdminPayment }>('POST', `/admin/payments/${payment.id}/refund`, {
        amount: 12.25,
      });
      expect(res.status, res.text).toBe(200);
      const after = await adminApi<{ payment: AdminPayment }>('GET', `/admin/payments/${payment.id}?fields=id,data`);
      const refunds = after.body.payment.data.refunds ?? [];
      expect(refunds).toHaveLength(1);
      const checkout = await hostpay.checkouts.get(paidCheckout);
      const received = checkout.payments.reduce((s, p) => s.plus(p.amount), new Decimal(0));
      // A quarter of the order (12.25 of 49 EUR) is a quarter of what was received, in USDT, rounded
      // down to the places hostpay wrote the amount due with.
      const places = checkout.paymentOptions[0]!.amountDue.split('.')[1]?.length ?? 0;
      expect(refunds[0]).toMatchObject({ kind: 'link', asset: 'USDT' });
      expect(refunds[0]!.amount).toBe(received.div(4).toDecimalPlaces(places, Decimal.ROUND_DOWN).toFixed());

      // The payer opens the link and gives an address: hostpay requests the refund payout.
      const page = await fetch(refunds[0]!.url!);
      expect(page.status).toBe(200);
      const submit = await fetch(refunds[0]!.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ address: TRON_ADDRESS }).toString(),
      });
      expect(submit.status, await submit.text()).toBe(201);
      const payouts = await hostpay.payouts.list();
      const refund = payouts.items.find((p) => p.refundOf === paidCheckout);
      expect(refund).toMatchObject({ amount: refunds[0]!.amount, refundOf: paidCheckout });
    });

    it.concurrent("the packed package type-checks against Medusa's real types: README's config, the provider, the storefront example", async () => {
      const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
      const section = readme.slice(readme.indexOf('\n## Configure\n'));
      const config = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
      expect(config).toContain("resolve: '@hostpay/medusa'");
      const fit = [
        "import type { IPaymentProvider, ModuleProviderExports } from '@medusajs/framework/types';",
        "import hostpay, { HostpayPaymentProvider, type HostpayOptions } from '@hostpay/medusa';",
        "const options: HostpayOptions = { baseUrl: 'https://pay.example.com', apiKey: 'hp_x', apiSecret: 'sk_x', webhookSecret: 'whsec_eA==' };",
        'export const provider: IPaymentProvider = new HostpayPaymentProvider({}, options);',
        'export const moduleExports: ModuleProviderExports = hostpay;',
        '',
      ].join('\n');
      const example = readFileSync(new URL('../examples/storefront.ts', import.meta.url), 'utf8');
      const files = { 'medusa-config.ts': config, 'fit.ts': fit, 'storefront.ts': example };
      expect(await typecheckInStore(files)).toBe('');
      // And a provider that does not fit Medusa's interface is caught (the check can fail).
      const broken = fit.replace('new HostpayPaymentProvider({}, options)', '{ getIdentifier: () => 1 }');
      expect(await typecheckInStore({ 'fit.ts': broken })).toMatch(/fit\.ts.*error TS2/);
    });

    it.concurrent('underpaid: the cart waits (completing it is refused), then the rest is paid and the order is made', async () => {
      const { cartId, session } = await cartWithSession();
      const id = session.data.checkout_id;
      let from = store!.output().length;
      const partial = await hostpay.checkouts.simulatePayment(id, { asset: 'USDT', chain: 'TRON', amount: '20' });
      expect(partial.status).toBe('underpaid');
      await logged(new RegExp(`checkout\\.underpaid → pending for ${session.id}`), from);
      const early = await storeApi<{ type: string }>('POST', `/store/carts/${cartId}/complete`);
      expect(early.body.type, early.text).not.toBe('order');
      from = store!.output().length;
      await hostpay.checkouts.simulatePayment(id, { asset: 'USDT', chain: 'TRON' });
      await logged(new RegExp(`checkout\\.settled → captured for ${session.id}`), from);
      const order = await orderPayments((await completedOrder(cartId)).id);
      expect(order.payment_status).toBe('captured');
    });

    it.concurrent('an expired checkout leaves the cart payable: a new session makes a new checkout, paid into an order', async () => {
      const { cartId, session, collectionId } = await cartWithSession();
      const from = store!.output().length;
      await expireSoon(sandbox, session.data.checkout_id);
      await logged(new RegExp(`checkout\\.expired → canceled for ${session.id}`), from);
      expect((await hostpay.checkouts.get(session.data.checkout_id)).status).toBe('expired');
      const refused = await storeApi<{ type: string }>('POST', `/store/carts/${cartId}/complete`);
      expect(refused.body.type, refused.text).not.toBe('order');

      const again = await newSession(collectionId);
      expect(again.id).not.toBe(session.id);
      expect(again.data.checkout_id).not.toBe(session.data.checkout_id);
      await hostpay.checkouts.simulatePayment(again.data.checkout_id, { asset: 'USDT', chain: 'TRON' });
      const order = await orderPayments((await completedOrder(cartId)).id);
      expect(order.payment_status).toBe('captured');
    });

    it.concurrent('a forged webhook, and a genuine one replayed after its window, are refused: the cart stays open', async () => {
      const { cartId, session } = await cartWithSession();
      const body = JSON.stringify({
        id: 'evt_forged',
        type: 'checkout.settled',
        createdAt: new Date().toISOString(),
        sequence: 999,
        data: {
          object: { id: session.data.checkout_id, status: 'settled', amount: 49, currency: 'EUR', orderId: session.id },
        },
      });
      const deliver = async (id: string, secret: string, at: Date) => {
        const signature = new Webhook(secret).sign(id, at, body);
        const res = await fetch(`${store!.url}/hooks/payment/hostpay_hostpay`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': signature,
          },
          body,
        });
        expect(res.status).toBe(200); // Medusa's route takes every delivery; the provider decides
      };
      const forger = `whsec_${randomBytes(24).toString('base64')}`;
      let from = store!.output().length;
      await deliver('evt_forged', forger, new Date());
      await logged(/delivery "evt_forged" ignored, no_matching_signature/, from);
      from = store!.output().length;
      await deliver('evt_replayed', webhookSecret, new Date(Date.now() - 10 * 60_000));
      await logged(/delivery "evt_replayed" ignored, timestamp_too_old/, from);

      const cart = await storeApi<{ cart: { completed_at: string | null } }>(
        'GET',
        `/store/carts/${cartId}?fields=id,completed_at`,
      );
      expect(cart.body.cart.completed_at).toBeNull();
      expect((await hostpay.checkouts.get(session.data.checkout_id)).status).toBe('open');
      const complete = await storeApi<{ type: string }>('POST', `/store/carts/${cartId}/complete`);
      expect(complete.body.type, complete.text).not.toBe('order');
    });
  },
);
