import {
  type CreatePaymentLinkBody,
  Decimal,
  decimalText,
  parseAmount,
  PAYMENT_LINK_LIMITS,
  type UpdatePaymentLinkBody,
} from '@hostpay/protocol';
import type { Insertable, Updateable } from 'kysely';
import { HostpayError } from '../../errors.js';
import { isoTime, ISO_TIME_HELP } from '../../http/iso-time.js';
import { checkCreateRequest, checkReturnUrl } from '../checkouts/create-input.js';
import type { PaymentLinkTable } from './tables.js';

/** A link's columns that a create sets from the body (id, merchant, slug and times are the service's). */
export type LinkColumns = Omit<
  Insertable<PaymentLinkTable>,
  'id' | 'merchant_id' | 'slug' | 'created_at' | 'updated_at'
>;

const bad = (code: 'INVALID_BODY' | 'INVALID_AMOUNT', field: string, message: string): never => {
  throw new HostpayError(code, `${field} ${message}`, { field });
};

/** An amount of the link's currency: positive, at most its decimals. */
export function linkAmount(field: string, value: string | number, decimals: number): Decimal {
  const checked = parseAmount(String(value));
  if (!checked.ok) return bad('INVALID_AMOUNT', field, checked.reason);
  if (checked.value.decimalPlaces() > decimals)
    bad('INVALID_AMOUNT', field, `must have at most ${decimals} decimal places (the currency's precision)`);
  return checked.value;
}

function expiresAt(value: string | null | undefined, now: number): string | null {
  if (value === undefined || value === null) return null;
  const at = isoTime(value);
  if (at === null) return bad('INVALID_BODY', 'expiresAt', `must be ${ISO_TIME_HELP}`);
  if (Date.parse(at) <= now) bad('INVALID_BODY', 'expiresAt', 'must be in the future');
  return at;
}

/**
 * A create body checked against the contract ("Payment links"): the price is `amount`, or the
 * sum of `lineItems` (a different `amount` is 400), or typed by the payer within min/max; amounts
 * at most the currency's decimals; URLs, metadata and options as checkout create checks them.
 */
export function checkCreateLink(
  given: CreatePaymentLinkBody,
  decimals: number,
  sandbox: boolean,
  now: number,
): LinkColumns {
  // null is "none", as the object writes it: a link read back can be sent again as a create.
  const body = withoutNulls(given);
  const amountOf = (field: string, v: string | number | undefined) =>
    v === undefined ? null : linkAmount(field, v, decimals);
  let amount = amountOf('amount', body.amount);
  let items: { name: string; quantity: number; unitAmount: string }[] | null = null;
  if (body.lineItems !== undefined) {
    if (body.lineItems.length < 1 || body.lineItems.length > PAYMENT_LINK_LIMITS.lineItems)
      bad('INVALID_BODY', 'lineItems', `must hold 1 to ${PAYMENT_LINK_LIMITS.lineItems} items`);
    let sum = new Decimal(0);
    items = body.lineItems.map((item, i) => {
      if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > PAYMENT_LINK_LIMITS.quantityMax)
        bad(
          'INVALID_BODY',
          `lineItems[${i}].quantity`,
          `must be a whole number from 1 to ${PAYMENT_LINK_LIMITS.quantityMax}`,
        );
      const unit = linkAmount(`lineItems[${i}].unitAmount`, item.unitAmount, decimals);
      sum = sum.plus(unit.times(item.quantity));
      return { name: item.name, quantity: item.quantity, unitAmount: decimalText(unit) };
    });
    if (amount !== null && !amount.eq(sum))
      bad('INVALID_AMOUNT', 'amount', `must equal the sum of lineItems (${decimalText(sum)}), or be left out`);
    amount = sum;
  }
  const min = amountOf('minAmount', body.minAmount);
  const max = amountOf('maxAmount', body.maxAmount);
  if (amount !== null && (min !== null || max !== null))
    bad(
      'INVALID_BODY',
      'minAmount',
      'and maxAmount are only for a link whose payer types the amount (no amount, no lineItems)',
    );
  if (min !== null && max !== null && min.gt(max)) bad('INVALID_AMOUNT', 'minAmount', 'must be at most maxAmount');
  // URLs, description, metadata and options exactly as a checkout of the link will take them.
  const checked = checkCreateRequest(
    {
      amount: '1',
      currency: body.currency,
      ...(body.description === undefined ? {} : { description: body.description }),
      ...(body.paymentOptions === undefined ? {} : { paymentOptions: body.paymentOptions }),
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      ...(body.cancelUrl === undefined ? {} : { cancelUrl: body.cancelUrl }),
    },
    sandbox,
  );
  const successUrl = checkSuccessUrl(body.successUrl, sandbox);
  return {
    name: checkName(body.name),
    description: checked.description,
    currency: body.currency.toUpperCase(),
    amount: amount === null ? null : decimalText(amount),
    min_amount: min === null ? null : decimalText(min),
    max_amount: max === null ? null : decimalText(max),
    line_items: items === null ? null : JSON.stringify(items),
    payment_options: checked.paymentOptions === null ? null : JSON.stringify(checked.paymentOptions),
    collect_email: body.collectEmail ?? 'none',
    success_url: successUrl,
    cancel_url: checked.cancelUrl,
    max_uses: body.maxUses ?? null,
    expires_at: expiresAt(body.expiresAt, now),
    active: body.active === false ? 0 : 1,
    metadata: JSON.stringify(checked.metadata),
  };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > PAYMENT_LINK_LIMITS.name)
    bad('INVALID_BODY', 'name', `must be 1 to ${PAYMENT_LINK_LIMITS.name} characters`);
  return trimmed;
}

/** successUrl may hold {CHECKOUT_ID}: checked with a stand-in, stored as given. */
function checkSuccessUrl(text: string | undefined | null, sandbox: boolean): string | null {
  if (text === undefined || text === null) return null;
  checkReturnUrl('successUrl', text.replaceAll('{CHECKOUT_ID}', 'chk_0'), sandbox);
  return checkReturnUrl('successUrl', text, sandbox);
}

/** A PATCH body: only the fields the contract names (the schema refuses others); null clears. */
export function checkUpdateLink(
  body: UpdatePaymentLinkBody,
  sandbox: boolean,
  now: number,
): Updateable<PaymentLinkTable> {
  const out: Updateable<PaymentLinkTable> = {};
  if (body.name !== undefined) out.name = checkName(body.name);
  if (body.description !== undefined) {
    if (body.description !== null && body.description.length > PAYMENT_LINK_LIMITS.description)
      bad('INVALID_BODY', 'description', `must be at most ${PAYMENT_LINK_LIMITS.description} characters`);
    out.description = body.description === '' ? null : body.description;
  }
  if (body.active !== undefined) out.active = body.active ? 1 : 0;
  if (body.maxUses !== undefined) out.max_uses = body.maxUses;
  if (body.expiresAt !== undefined) out.expires_at = expiresAt(body.expiresAt, now);
  if (body.successUrl !== undefined) out.success_url = checkSuccessUrl(body.successUrl, sandbox);
  if (body.cancelUrl !== undefined)
    out.cancel_url = body.cancelUrl === null ? null : checkReturnUrl('cancelUrl', body.cancelUrl, sandbox);
  if (body.metadata !== undefined)
    out.metadata = JSON.stringify(
      checkCreateRequest({ amount: '1', currency: 'XX', metadata: body.metadata }, sandbox).metadata,
    );
  return out;
}

type NoNulls<T> = { [K in keyof T]: Exclude<T[K], null> };
function withoutNulls<T extends object>(body: T): NoNulls<T> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)) as NoNulls<T>;
}
