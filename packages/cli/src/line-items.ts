import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { InvoiceLineInput } from '@hostpay/client';
import { PAYMENT_LINK_LIMITS, parseExactJson } from '@hostpay/protocol';
import { UsageError } from './output.js';

/** A payment link line as the API takes it: a whole quantity. */
export interface LinkLine {
  name: string;
  quantity: number;
  unitAmount: string;
}

const fields = (text: string, counts: number[], shape: string): string[] => {
  const parts = text.split(':').map((p) => p.trim());
  if (!counts.includes(parts.length) || parts.some((p) => p === ''))
    throw new InvalidArgumentError(`must be ${shape} (a name with ":" in it goes in --items-file)`);
  return parts;
};

const wholeQuantity = (text: string): number => {
  const max = PAYMENT_LINK_LIMITS.quantityMax;
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new InvalidArgumentError(`the quantity of a link line must be a whole number from 1 to ${max}`);
  return Number(text);
};

/** `--item "NAME:QTY:UNIT_PRICE"` of a payment link, repeatable. */
export function collectLinkItem(text: string, previous: LinkLine[] = []): LinkLine[] {
  const [name, quantity, unitAmount] = fields(text, [3], 'NAME:QTY:UNIT_PRICE, e.g. "Espresso:2:2.55"');
  return [
    ...previous,
    { name: name as string, quantity: wholeQuantity(quantity as string), unitAmount: unitAmount as string },
  ];
}

/** `--item "DESCRIPTION:QTY:UNIT_PRICE[:TAX_PERCENT]"` of an invoice, repeatable; amounts stay text. */
export function collectInvoiceItem(text: string, previous: InvoiceLineInput[] = []): InvoiceLineInput[] {
  const [description, quantity, unitAmount, taxPercent] = fields(
    text,
    [3, 4],
    'DESCRIPTION:QTY:UNIT_PRICE[:TAX_PERCENT], e.g. "Consulting:1.5:120:20"',
  );
  const line: InvoiceLineInput = {
    description: description as string,
    quantity: quantity as string,
    unitAmount: unitAmount as string,
  };
  return [...previous, taxPercent === undefined ? line : { ...line, taxPercent }];
}

/**
 * `--items-file FILE`: a JSON array of lines as the API takes them. Numbers are read as their
 * exact text (so `19.99` stays `19.99`), a link line's quantity as the whole number it must be.
 */
function readItems(file: string): Record<string, unknown>[] {
  let doc: unknown;
  try {
    doc = parseExactJson(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--items-file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(doc) || doc.some((l) => typeof l !== 'object' || l === null || Array.isArray(l)))
    throw new UsageError(`--items-file ${file}: must be a JSON array of line objects`);
  return doc as Record<string, unknown>[];
}

export function linkItemsFile(file: string): LinkLine[] {
  return readItems(file).map((l) => ({
    ...l,
    quantity: typeof l.quantity === 'string' && /^[0-9]+$/.test(l.quantity) ? Number(l.quantity) : l.quantity,
  })) as LinkLine[];
}

export function invoiceItemsFile(file: string): InvoiceLineInput[] {
  return readItems(file) as unknown as InvoiceLineInput[];
}

/** The lines of `--items-file` then `--item`; undefined when neither was given. */
export function linesOf<T>(fromFile: T[] | undefined, fromFlags: T[] | undefined): T[] | undefined {
  if (fromFile === undefined && fromFlags === undefined) return undefined;
  return [...(fromFile ?? []), ...(fromFlags ?? [])];
}
