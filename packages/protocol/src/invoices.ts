import { Type, type Static } from '@sinclair/typebox';
import { DECIMAL_FORMAT } from './schemas.js';
import { EMAIL_FIELD_MAX } from './email.js';

/**
 * Invoices on the wire (spec/commerce.md, "Invoices"): drafts, finalized with a gap-free number
 * per merchant, paid through one or more checkouts. Amounts are exact decimals written as JSON
 * number literals, as everywhere in hostpay.
 */
const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });
const Time = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const AmountInput = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
    description: `${description}; a JSON number or a string, read exactly either way`,
  });

export const INVOICE_STATUS_VALUES = ['draft', 'open', 'partially_paid', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUS_VALUES)[number];

/** At most this many lines on one invoice. */
export const INVOICE_MAX_LINES = 100;

export const InvoiceLineItem = Type.Object(
  {
    description: Type.String(),
    quantity: Amount('how many (positive, at most 6 decimals)'),
    unitAmount: Amount('price of one, in the invoice currency'),
    taxPercent: Type.Union([Amount('tax rate of this line in percent'), Type.Null()]),
    amount: Amount("quantity × unitAmount, half-up to the currency's decimals"),
    tax: Amount("amount × taxPercent / 100, half-up to the currency's decimals"),
  },
  { additionalProperties: false },
);

export const Invoice = Type.Object(
  {
    id: Type.String({ description: 'inv_…' }),
    number: Type.Union([Type.String(), Type.Null()], {
      description:
        'null until finalized, then <invoicePrefix>-000001…, gap-free per merchant (a void invoice keeps it)',
    }),
    status: Type.Union(INVOICE_STATUS_VALUES.map((s) => Type.Literal(s))),
    customer: Type.Object(
      { name: Type.Union([Type.String(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) },
      { additionalProperties: false },
    ),
    lineItems: Type.Array(InvoiceLineItem),
    subtotal: Amount('sum of the lines'),
    tax: Amount('sum of the per-line taxes'),
    total: Amount('subtotal + tax'),
    currency: Type.String(),
    amountPaid: Amount('what settled checkouts of this invoice paid (overpayment and refunds do not change it)'),
    amountDue: Amount('total − amountPaid, at least 0 (0 once void)'),
    dueAt: Type.Union([Time('when payment is due'), Type.Null()]),
    memo: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Record(Type.String(), Type.String()),
    url: Type.Union([Type.String(), Type.Null()], {
      description: 'null until finalized, then <public base>/i/{token}: the public invoice page',
    }),
    checkoutIds: Type.Array(Type.String(), { description: 'the checkouts made to pay it, oldest first' }),
    finalizedAt: Type.Union([Time('finalized'), Type.Null()]),
    paidAt: Type.Union([Time('became paid'), Type.Null()]),
    sentAt: Type.Union([Time('last emailed to the customer (POST …/send)'), Type.Null()]),
    createdAt: Time('creation'),
    updatedAt: Time('last change'),
  },
  { additionalProperties: false },
);
export type Invoice = Static<typeof Invoice>;

export const InvoiceLineInput = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500 }),
    quantity: AmountInput('positive, at most 6 decimals (default 1)'),
    unitAmount: AmountInput('price of one in the invoice currency, ≥ 0'),
    taxPercent: Type.Optional(AmountInput('0–100, at most 4 decimals')),
  },
  { additionalProperties: false },
);

const CustomerInput = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    email: Type.Optional(
      Nullable(Type.String({ maxLength: EMAIL_FIELD_MAX, description: 'one address, no display name' })),
    ),
  },
  { additionalProperties: false },
);

const draftFields = {
  customer: Type.Optional(CustomerInput),
  lineItems: Type.Optional(Type.Array(InvoiceLineInput, { maxItems: INVOICE_MAX_LINES })),
  dueAt: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'RFC 3339 with an offset' }))),
  memo: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  metadata: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: '≤ 20 string pairs, keys ≤ 40, values ≤ 500' }),
  ),
};

export const CreateInvoiceBody = Type.Object(
  {
    currency: Type.String({ minLength: 1, maxLength: 12, description: 'a currency hostpay knows, e.g. EUR' }),
    ...draftFields,
  },
  { additionalProperties: false },
);
export type CreateInvoiceBody = Static<typeof CreateInvoiceBody>;

export const UpdateInvoiceBody = Type.Object(
  { currency: Type.Optional(Type.String({ minLength: 1, maxLength: 12 })), ...draftFields },
  { additionalProperties: false },
);
export type UpdateInvoiceBody = Static<typeof UpdateInvoiceBody>;

export const INVOICE_PATHS = {
  invoices: '/api/v1/cp/invoices',
  invoice: '/api/v1/cp/invoices/:id',
  finalize: '/api/v1/cp/invoices/:id/finalize',
  void: '/api/v1/cp/invoices/:id/void',
  markUncollectible: '/api/v1/cp/invoices/:id/mark-uncollectible',
  send: '/api/v1/cp/invoices/:id/send',
  pdf: '/api/v1/cp/invoices/:id/pdf',
} as const;
