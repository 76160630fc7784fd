import { Type, type Static } from '@sinclair/typebox';
import { Checkout } from './checkout.js';
import { DECIMAL_FORMAT } from './schemas.js';
import { WebhookAttempt } from './webhooks.js';

/**
 * The merchant routes the dashboard reads beyond the checkout and webhook APIs: its
 * home's summary and a checkout's webhook deliveries. Signed requests and the dashboard session
 * reach them alike.
 */
const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });
const Time = (description: string) => Type.String({ format: 'date-time', description });

export const SUMMARY_PATHS = {
  summary: '/api/v1/cp/summary',
  checkoutWebhookDeliveries: '/api/v1/cp/psp/hosted-pay/:id/webhook-deliveries',
} as const;

/** How long a checkout may stay `processing` (waiting for confirmations) before it needs attention. */
export const PROCESSING_ATTENTION_MINUTES = 60;
/** How far back an overpaid settled checkout still needs attention (a refund of the excess). */
export const OVERPAID_ATTENTION_DAYS = 30;
/** The most checkouts `attention` lists (newest change first). */
export const ATTENTION_LIMIT = 50;

const SettledVolume = Type.Object(
  {
    currency: Type.String({ description: 'the currency of the checkouts (what they were priced in)' }),
    amount: Amount('the sum of the amounts of the settled checkouts in that currency'),
    count: Type.Integer({ description: 'how many checkouts settled' }),
  },
  { additionalProperties: false },
);

export const MerchantSummary = Type.Object(
  {
    balances: Type.Array(
      Type.Object(
        {
          walletId: Type.String(),
          asset: Type.String(),
          chain: Type.String(),
          balance: Amount('the ledger balance of the wallet, frozen part included'),
          freezeAmount: Amount('the part frozen for payouts in flight'),
        },
        { additionalProperties: false },
      ),
      { description: 'every wallet of the merchant, by asset then chain' },
    ),
    settled: Type.Object(
      {
        todayFrom: Time('the start of today (00:00 UTC)'),
        monthFrom: Time('the start of this month (the 1st, 00:00 UTC)'),
        today: Type.Array(SettledVolume, { description: 'settled since todayFrom, by currency' }),
        month: Type.Array(SettledVolume, { description: 'settled since monthFrom, by currency' }),
      },
      { additionalProperties: false },
    ),
    attention: Type.Array(Type.Ref(Checkout), {
      description: `checkouts needing the merchant: needs_review (paid late, partly paid then expired, wrong asset), underpaid (waiting for the rest), processing for more than ${PROCESSING_ATTENTION_MINUTES} minutes, and settled overpaid (reason paid_over) in the last ${OVERPAID_ATTENTION_DAYS} days; newest change first, at most ${ATTENTION_LIMIT}`,
    }),
  },
  { additionalProperties: false },
);
export type MerchantSummary = Static<typeof MerchantSummary>;

/** One delivery attempt of one of a checkout's events, with the endpoint it went to. */
export const CheckoutWebhookAttempt = Type.Object(
  {
    ...WebhookAttempt.properties,
    endpointId: Type.String({ description: 'we_…: the endpoint the attempt went to' }),
  },
  { additionalProperties: false },
);
export type CheckoutWebhookAttempt = Static<typeof CheckoutWebhookAttempt>;
