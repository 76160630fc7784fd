import { Type } from '@sinclair/typebox';
import { successSchema } from '../../http/success-body.js';

const Amount = (description: string) => Type.Number({ description: `${description}; exact decimal literal` });
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
    title: Type.String({ description: "the page's headline for this state" }),
    message: Type.String({ description: 'what the payer should do next' }),
    link: Type.Union(
      [Type.Object({ href: Type.String(), text: Type.String() }, { additionalProperties: false }), Type.Null()],
      { description: 'successUrl when settled, cancelUrl while open or once expired/canceled' },
    ),
    merchantName: Type.String(),
    description: Nullable(Type.String()),
    amount: Amount('the checkout amount in its currency'),
    currency: Type.String(),
    expiresAt: Type.String(),
    now: Type.String({ description: 'server time (ISO 8601): the page counts down on it' }),
    options: Type.Array(PayOptionStatus),
  },
  { additionalProperties: false },
);

export const PayStatusEnvelope = successSchema(PayStatus, "The payment page's state.");

export const PayParams = Type.Object(
  { id: Type.String({ maxLength: 100, description: 'checkout id (chk_…)' }) },
  { additionalProperties: false },
);
