import { type Decimal, FeePreviewEnvelope, FeesPreviewQuery, parseAmount, PATHS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { selectMerchant } from '../../auth/merchant-selection.js';
import { principalOf } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import { andThen, sendJsonText } from '../../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import type { FastRoute } from '../../http/fast-path.js';
import type { MerchantServices } from '../../auth/ports.js';
import { TypeCompiler } from '@sinclair/typebox/compiler';

declare module '../../auth/ports.js' {
  interface MerchantServices {
    /**
     * The full success envelope for a fee preview, as JSON text (the text itself when cached).
     * Throws HostpayError 422s. `amountText`: `amount.toFixed()`, when the caller already has it.
     */
    feePreviewBody(
      merchantId: string,
      amount: Decimal,
      currency: string,
      amountText?: string,
    ): string | Promise<string>;
  }
}

/**
 * The merchant's fee preview (interface §2.3), behind the merchant authentication hook (added in
 * this plugin's scope). The body is finished JSON text with exact decimals, sent as it is.
 */
const feePreview200 = Type.Unsafe<string>(
  Type.Ref(FeePreviewEnvelope, { description: 'The fee schedule that applies and the fee for this amount.' }),
);

const SCOPE = 'fees:read';

// Query values the fast path takes as they are: nothing a query parser would decode (%, +).
const PLAIN = /^[A-Za-z0-9._~-]*$/;
const queryCheck = TypeCompiler.Compile(FeesPreviewQuery);

/**
 * The fee preview on the fast path (http/fast-path.ts): `amount` and `currency` (either order),
 * the key's own merchant, values that need no decoding and pass the route's schema and amount
 * check. Anything else is left to Fastify and the route below, which answers it or its error.
 */
export function feeFastRoutes(services: MerchantServices): FastRoute[] {
  // Clients repeat a handful of queries: each is parsed and checked once (bounded: emptied when full).
  const parsed = new Map<string, FastQuery | null>();
  return [
    {
      path: PATHS.feesPreview,
      route: PATHS.feesPreview,
      scope: SCOPE,
      signatureV1: true,
      answer(query, principal) {
        let q = parsed.get(query);
        if (q === undefined) {
          q = parseFastQuery(query);
          if (parsed.size >= MAX_PARSED_QUERIES) parsed.clear();
          parsed.set(query, q);
        }
        return q === null
          ? undefined
          : services.feePreviewBody(principal.merchantId, q.amount, q.currency, q.amountText);
      },
    },
  ];
}

const MAX_PARSED_QUERIES = 1024;

interface FastQuery {
  amount: Decimal;
  /** amount.toFixed(), the answer cache's spelling. */
  amountText: string;
  /** Upper case, as the route passes it. */
  currency: string;
}

/** `amount` and `currency` as the route reads them, or null for anything the route should see. */
function parseFastQuery(query: string): FastQuery | null {
  const parts = query.split('&');
  if (parts.length !== 2) return null;
  let amount: string | undefined;
  let currency: string | undefined;
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (eq === -1 || !PLAIN.test(value)) return null;
    if (name === 'amount' && amount === undefined) amount = value;
    else if (name === 'currency' && currency === undefined) currency = value;
    else return null;
  }
  if (!queryCheck.Check({ amount, currency })) return null;
  const checked = parseAmount(amount!);
  return checked.ok
    ? { amount: checked.value, amountText: checked.value.toFixed(), currency: currency!.toUpperCase() }
    : null;
}

export async function feeMerchantRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { services } = ctx;
  app.addHook('onRequest', ctx.auth.merchant);

  app.get(
    PATHS.feesPreview,
    {
      schema: {
        tags: ['merchant'],
        operationId: 'previewFees',
        summary: 'Preview the fees of a hosted checkout payment',
        description:
          "Which fee schedule and tier apply to this amount and currency (the merchant's own, else the default), converted to the settlement currency when it differs, and the fee that results. Amounts are exact decimals written as JSON numbers.",
        querystring: FeesPreviewQuery,
        security: SECURITY.merchant,
        response: { 200: feePreview200, ...errorResponses(ERRORS.feesPreview) },
      },
      // An interface endpoint (interface §4.2): version-1 signatures are accepted here.
      config: { scope: SCOPE, signatureV1: true },
    },
    (req, reply) => {
      // The schema pattern admits the shape; parseAmount adds the range (> 0, <= 10^15).
      const amount = parseAmount(req.query.amount);
      if (!amount.ok) {
        throw new HostpayError(
          'INVALID_AMOUNT',
          `query parameter \`amount\` ${amount.reason}: send the checkout amount as a positive decimal, e.g. amount=99.95`,
          { parameter: 'amount' },
        );
      }
      // Not an async function: a cached preview is sent in the same turn (see sendJsonText).
      return andThen(selectMerchant(services, principalOf(req), req.query.merchantId), (merchantId) =>
        sendJsonText(reply, services.feePreviewBody(merchantId, amount.value, req.query.currency.toUpperCase())),
      );
    },
  );
}
