import type { JsonDecimal } from '@hostpay/protocol';
import type {
  AdminServices,
  AuditView,
  FeeTierView,
  KeyView,
  MerchantView,
  PostingView,
  RateView,
  SettlementView,
  TransferView,
  WalletSummaryView,
} from '@hostpay/server';

// Types only (erased at build: nothing of the server reaches the browser bundle). One definition
// per answer, taken from the server's own types, so the console cannot drift from the API it reads.

/**
 * A server answer as the console holds it: `api.ts` reads with the exact JSON parser, which gives
 * every JSON number (an exact decimal or a plain count) as its decimal text.
 */
export type AsRead<T> = T extends JsonDecimal | number
  ? string
  : T extends (infer U)[]
    ? AsRead<U>[]
    : T extends object
      ? { [K in keyof T]: AsRead<T[K]> }
      : T;

/** What an operator operation answers (awaited). */
type Answer<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;
type ItemOf<T> = T extends { items: (infer U)[] } ? U : T extends (infer U)[] ? U : never;

export type { Page } from '../ui-kit/ui.js';

/** A checkout as operators see it: the merchant's view plus its merchant, the stored fee preview typed. */
export type Checkout = Omit<AsRead<Answer<AdminServices['checkouts']['getAny']>>, 'fee'> & { fee: FeePreview };
export type PaymentOption = Checkout['paymentOptions'][number];
/** A transfer that paid a checkout, as the checkout lists it. */
export type Payment = Checkout['payments'][number];
export type TimelineEntry = Checkout['timeline'][number];
export type SettlePreviewView = AsRead<Answer<AdminServices['checkouts']['settlePreview']>>;
export type FeePreview = AsRead<Answer<AdminServices['operatorPreview']>>;

export type Transfer = AsRead<TransferView>;
export type Posting = AsRead<PostingView>;
export type AuditEntry = AsRead<AuditView>;
export type Merchant = AsRead<MerchantView>;
export type Wallet = AsRead<WalletSummaryView>;
export type ApiKey = AsRead<KeyView>;
export type FeeTier = AsRead<FeeTierView>;
export type Rate = AsRead<RateView>;
export type RateSource = AsRead<ItemOf<Answer<AdminServices['listRateSources']>>>;
export type SettlementCurrency = AsRead<SettlementView>;
export type Chain = AsRead<ItemOf<Answer<AdminServices['listChains']>>>;
export type ChainWatchView = AsRead<ItemOf<Answer<AdminServices['listChainWatches']>>>;
export type WebhookEndpoint = AsRead<ItemOf<Answer<AdminServices['listWebhookEndpoints']>>>;
export type WebhookAttempt = AsRead<ItemOf<Answer<AdminServices['webhookAttempts']>>>;
export type Stats = AsRead<Answer<AdminServices['stats']>>;

/** A payout as operators see it: the merchant's object plus its merchant id. */
export type Payout = AsRead<Answer<AdminServices['payouts']['getAny']>>;
export type PayoutTimelineEntry = Payout['timeline'][number];
/** A hot-wallet payout's transactions, their state and the operator's ways out (GET /payouts/{id}/hot-wallet). */
export type PayoutChain = AsRead<Answer<AdminServices['payoutChain']>>;
/** A payout destination of any merchant's address book, with its merchant id. */
export type PayoutDestination = AsRead<ItemOf<Answer<AdminServices['payouts']['listAllDestinations']>>>;
/** A mail of the outbox (GET /admin/v1/mail) and one with its text (GET /admin/v1/mail/:id). */
export type MailItem = AsRead<ItemOf<Answer<AdminServices['listMail']>>>;
export type MailDetail = AsRead<Answer<AdminServices['getMail']>>;
