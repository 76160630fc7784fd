import { DECIMAL_FORMAT } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { successSchema } from '../../http/success-body.js';

const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description}; exact decimal literal` });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const PayOptionStatus = Type.Object(
  {
    key: Type.String({ description: "ASSET-CHAIN, the page's ?option= value" }),
    asset: Type.String(),
    chain: Type.String(),
    network: Type.String(),
    address: Type.String({ description: 'deposit address of this option' }),
    amountDue: Amount('what this option asks in the asset'),
    received: Amount('received so far on this option'),
    remaining: Amount('still to send on this option'),
    confirmations: Type.Integer({ minimum: 0, description: 'fewest confirmations among the payments to this option' }),
    confirmationsRequired: Type.Integer({ minimum: 0 }),
    paymentUri: Type.String({
      description: 'what the QR code holds: BIP-21 (BTC), EIP-681 (EVM) or the address (TRON)',
    }),
    walletUri: Nullable(
      Type.String({
        description:
          'the "Open in a wallet app" link: BIP-21 (BTC) or EIP-681 (EVM); null where the chain has no payment URI scheme (TRON)',
      }),
    ),
  },
  { additionalProperties: false },
);

const PayPayment = Type.Object(
  {
    asset: Type.String(),
    chain: Type.String(),
    amount: Amount('what this payment brought, in its asset'),
    txHash: Type.String({ description: 'the transaction on the chain' }),
    explorerUrl: Nullable(
      Type.String({
        description:
          "the operator's block explorer page of the transaction; null when none is configured for the chain",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Exactly what the payment page shows: no metadata, no order id, no fee, no rate. */
export const PayStatus = Type.Object(
  {
    id: Type.String(),
    status: Type.String({
      description: 'open, underpaid, processing, settled, expired, canceled, needs_review or invalid',
    }),
    reason: Nullable(Type.String()),
    title: Type.String({ description: "the page's headline for this state, in the payer's language" }),
    message: Type.String({ description: 'what the payer should do next' }),
    link: Type.Union(
      [Type.Object({ href: Type.String(), text: Type.String() }, { additionalProperties: false }), Type.Null()],
      { description: 'successUrl when settled, cancelUrl while open or once expired/canceled' },
    ),
    footer: Type.String({ description: "the page footer's advice for this state" }),
    merchantName: Type.String(),
    description: Nullable(Type.String()),
    amount: Amount('the checkout amount in its currency'),
    currency: Type.String(),
    amountText: Type.String({
      description:
        "the amount as the page writes it: a fiat currency with its minor units in the payer's language; a crypto asset as its exact text",
    }),
    expiresAt: Type.String(),
    now: Type.String({ description: 'server time (ISO 8601): the page counts down on it' }),
    options: Type.Array(PayOptionStatus),
    payments: Type.Array(PayPayment, { description: 'payments received (not retracted), oldest first' }),
    receiptNumber: Nullable(Type.String({ description: 'the receipt number (`RCPT-000001`) once settled, else null' })),
    receiptUrl: Nullable(
      Type.String({ description: 'the receipt page (`<public base>/pay/{id}/receipt`) once settled, else null' }),
    ),
  },
  { additionalProperties: false },
);

export const PayStatusEnvelope = successSchema(PayStatus, "The payment page's state.");

export const PayParams = Type.Object(
  { id: Type.String({ maxLength: 100, description: 'checkout id (chk_…)' }) },
  { additionalProperties: false },
);

export const PayStatusQuery = Type.Object({
  lang: Type.Optional(
    Type.String({
      description:
        'the language of title, message, link text, footer and amountText (en, es, pt-BR, fr, de, it, tr, ru, zh-CN, ja, ar; another tag is matched by its primary language). Without it, or for a language hostpay does not have: the hostpay_lang cookie, then Accept-Language, then English. The page passes its own language.',
    }),
  ),
});
