import { Decimal, decimalText, INVOICE_MAX_LINES, parseAmount } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';

/** One line as stored: the merchant's figures as decimal text (taxPercent null when none). */
export interface StoredLine {
  description: string;
  quantity: string;
  unitAmount: string;
  taxPercent: string | null;
}

/** A line with its computed amount and tax. */
export interface PricedLine extends StoredLine {
  amount: string;
  tax: string;
}

export interface Totals {
  lines: PricedLine[];
  subtotal: string;
  tax: string;
  total: string;
}

/** A line as the wire gives it (amounts as exact text or JSON numbers' text). */
export interface LineInput {
  description: string;
  quantity: string | number;
  unitAmount: string | number;
  taxPercent?: string | number | null | undefined;
}

const invalid = (field: string, message: string): never => {
  throw new HostpayError('INVALID_AMOUNT', `${field} ${message}`, { field });
};

function decimalOf(field: string, value: string | number, maxPlaces: number, allowZero: boolean): Decimal {
  const checked = parseAmount(String(value));
  if (!checked.ok) {
    // parseAmount refuses 0; a unit amount or tax rate of 0 is fine.
    if (allowZero && /^0+(\.0+)?$/.test(String(value).trim())) return new Decimal(0);
    return invalid(field, `${checked.reason}: send a decimal such as "12.50"`);
  }
  if (checked.value.decimalPlaces() > maxPlaces) invalid(field, `must have at most ${maxPlaces} decimal places`);
  return checked.value;
}

/**
 * The merchant's lines, checked: a description, a positive quantity (at most 6 places), a unit
 * amount ≥ 0 within the currency's decimals, a tax rate 0–100 (at most 4 places).
 */
export function checkLines(lines: readonly LineInput[], decimals: number): StoredLine[] {
  if (lines.length > INVOICE_MAX_LINES) invalid('lineItems', `must hold at most ${INVOICE_MAX_LINES} lines`);
  return lines.map((l, i) => {
    const at = `lineItems[${i}]`;
    const description = l.description.trim();
    if (description === '')
      throw new HostpayError('INVALID_BODY', `${at}.description must not be empty`, { field: `${at}.description` });
    const quantity = decimalOf(`${at}.quantity`, l.quantity, 6, false);
    const unitAmount = decimalOf(`${at}.unitAmount`, l.unitAmount, decimals, true);
    let taxPercent: string | null = null;
    if (l.taxPercent !== undefined && l.taxPercent !== null) {
      const rate = decimalOf(`${at}.taxPercent`, l.taxPercent, 4, true);
      if (rate.gt(100)) invalid(`${at}.taxPercent`, 'must be at most 100');
      taxPercent = decimalText(rate);
    }
    return { description, quantity: decimalText(quantity), unitAmount: decimalText(unitAmount), taxPercent };
  });
}

/** Half-up to the currency's decimals. */
export const roundTo = (value: Decimal, decimals: number): Decimal =>
  value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);

/**
 * The figures of an invoice (spec/commerce.md): each line's amount (quantity × unit, half-up to the
 * currency's decimals) and tax (amount × rate / 100, half-up per line), then summed.
 */
export function priceLines(lines: readonly StoredLine[], decimals: number): Totals {
  let subtotal = new Decimal(0);
  let tax = new Decimal(0);
  const priced = lines.map((l) => {
    const amount = roundTo(new Decimal(l.quantity).times(l.unitAmount), decimals);
    const lineTax = l.taxPercent === null ? new Decimal(0) : roundTo(amount.times(l.taxPercent).div(100), decimals);
    subtotal = subtotal.plus(amount);
    tax = tax.plus(lineTax);
    return { ...l, amount: decimalText(amount), tax: decimalText(lineTax) };
  });
  return {
    lines: priced,
    subtotal: decimalText(subtotal),
    tax: decimalText(tax),
    total: decimalText(subtotal.plus(tax)),
  };
}
