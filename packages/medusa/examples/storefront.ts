/**
 * A storefront's checkout with hostpay, against Medusa's store API with plain fetch (the
 * `@medusajs/js-sdk` methods named below call the same routes). Browser code: no secret here, only
 * the store's publishable key. packages/medusa/test/medusa-store.test.ts makes exactly these
 * calls against a real Medusa store.
 */
const MEDUSA = 'https://shop.example'; // your Medusa backend
const PUBLISHABLE_KEY = 'pk_…'; // Medusa admin → Settings → Publishable API keys

async function store<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${MEDUSA}${path}`, {
    method,
    credentials: 'include',
    headers: { 'content-type': 'application/json', 'x-publishable-api-key': PUBLISHABLE_KEY },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface HostpaySession {
  id: string;
  provider_id: string;
  /** `url` is the hosted payment page; `checkout_id` the hostpay checkout. */
  data: { url: string; checkout_id: string; checkout_status: string };
}

/**
 * Steps 1-2: a payment session with hostpay for the cart (sdk.store.payment.initiatePaymentSession),
 * telling the hosted page where to send the payer back. Redirect the payer to `data.url`.
 */
export async function payWithHostpay(cartId: string, returnUrl: string): Promise<HostpaySession> {
  const { payment_collection } = await store<{ payment_collection: { id: string } }>(
    'POST',
    '/store/payment-collections',
    { cart_id: cartId },
  );
  const { payment_collection: withSession } = await store<{
    payment_collection: { payment_sessions: HostpaySession[] };
  }>('POST', `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: 'pp_hostpay_hostpay',
    data: { success_url: returnUrl, cancel_url: `${returnUrl}?canceled=1` },
  });
  const session = withSession.payment_sessions.find((s) => s.provider_id === 'pp_hostpay_hostpay');
  if (!session) throw new Error('Medusa made no hostpay session: is pp_hostpay_hostpay enabled in the region?');
  return session;
}

type Completion =
  | { type: 'order'; order: { id: string; display_id: number } }
  | { type: 'cart'; cart: { id: string }; error: { message: string } };

/**
 * Step 3, on the return page (sdk.store.cart.complete): the order, which the webhook has usually
 * made already, or the cart while the payment is still confirming (try again shortly).
 */
export async function completeCart(cartId: string): Promise<Completion> {
  const res = await fetch(`${MEDUSA}/store/carts/${cartId}/complete`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'x-publishable-api-key': PUBLISHABLE_KEY },
  });
  const body = (await res.json()) as Completion | { message: string };
  if ('type' in body) return body;
  // Not paid yet (pending on-chain, or underpaid): Medusa refuses to authorize the session.
  return { type: 'cart', cart: { id: cartId }, error: { message: body.message } };
}

/** The checkout button: create the session and send the payer to hostpay's page. */
export async function onCheckoutClick(cartId: string): Promise<void> {
  const session = await payWithHostpay(cartId, `${location.origin}/checkout/return?cart=${cartId}`);
  location.href = session.data.url;
}

/** The return page: show the order, or wait and look again (a few seconds per block confirmation). */
export async function onReturnPage(cartId: string, show: (text: string) => void): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await completeCart(cartId);
    if (result.type === 'order') return show(`Thank you! Order #${result.order.display_id} is paid.`);
    show('Your payment is being confirmed…');
    await new Promise((r) => setTimeout(r, 3000));
  }
  show('Your payment has not arrived yet. If you paid, your order appears as soon as it is confirmed.');
}
