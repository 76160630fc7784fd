import { checkoutCall, resultOf } from '../http-helpers/checkouts.js';
import type { HttpFixture } from '../http-helpers/fixture.js';

export interface CreatedCheckout {
  id: string;
  status: string;
  url: string;
  paymentOptions: {
    asset: string;
    chain: string;
    address: string;
    amountDue: string;
    remaining: string;
    tokenContract: string | null;
  }[];
}

const C = '/api/v1/cp/psp/hosted-pay';

/** A checkout of the demo merchant through the merchant API; throws with the answer when refused. */
export async function createCheckout(fx: HttpFixture, body: Record<string, unknown>): Promise<CreatedCheckout> {
  const res = await checkoutCall(fx, fx.demo, 'POST', C, body);
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return resultOf<CreatedCheckout>(res);
}

export async function simulate(
  fx: HttpFixture,
  id: string,
  body: { asset: string; chain: string; amount?: string; confirmations?: number },
): Promise<{ status: string }> {
  const res = await checkoutCall(fx, fx.demo, 'POST', `${C}/${id}/simulate-payment`, body);
  if (res.statusCode !== 200) throw new Error(`simulate: ${res.statusCode} ${res.body}`);
  return resultOf<{ status: string }>(res);
}

export async function cancel(fx: HttpFixture, id: string): Promise<void> {
  const res = await checkoutCall(fx, fx.demo, 'POST', `${C}/${id}/cancel`);
  if (res.statusCode !== 200) throw new Error(`cancel: ${res.statusCode} ${res.body}`);
}
