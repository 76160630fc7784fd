import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { checkoutCall, resultOf } from '../http-helpers/checkouts.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';

export interface Link {
  id: string;
  slug: string;
  url: string;
  name: string;
  description: string | null;
  currency: string;
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  lineItems: { name: string; quantity: number; unitAmount: string }[] | null;
  collectEmail: string;
  successUrl: string | null;
  cancelUrl: string | null;
  maxUses: number | null;
  uses: number;
  expiresAt: string | null;
  active: boolean;
  status: string;
  metadata: Record<string, string>;
}

export const LINKS = '/api/v1/cp/payment-links';
export const USDT_TRON = [{ asset: 'USDT', chain: 'TRON' }];
let keys = 0;

/** A signed create with an Idempotency-Key, as every merchant POST carries one. */
export function createLink(fx: HttpFixture, body: Record<string, unknown>, key: TestKey = fx.demo) {
  return checkoutCall(fx, key, 'POST', LINKS, body, { 'idempotency-key': `plink-test-${++keys}-${Date.now()}` });
}

export async function newLink(fx: HttpFixture, body: Record<string, unknown>): Promise<Link> {
  const res = await createLink(fx, { currency: 'USDT', paymentOptions: USDT_TRON, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return resultOf<Link>(res);
}

export const FORM = 'application/x-www-form-urlencoded';

/** The nonce of the page's form. */
export function nonceOf(page: LightMyRequestResponse): string {
  const m = /name="nonce" value="([^"]+)"/.exec(page.body);
  expect(m, page.body).not.toBeNull();
  return m![1]!;
}

/** A no-JavaScript submit of the link's form, as a browser on the page sends it. */
export function submit(
  fx: HttpFixture,
  slug: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fx.app.inject({
    method: 'POST',
    url: `/l/${slug}`,
    headers: { 'content-type': FORM, 'sec-fetch-site': 'same-origin', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Opens the page and submits its form with `fields`. */
export async function openAndPay(
  fx: HttpFixture,
  slug: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const page = await fx.app.inject({ method: 'GET', url: `/l/${slug}`, headers });
  expect(page.statusCode, page.body).toBe(200);
  return submit(fx, slug, { nonce: nonceOf(page), ...fields }, headers);
}
