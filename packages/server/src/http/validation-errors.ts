import { parseAmount } from '@hostpay/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import { ISO_TIME_HELP } from './iso-time.js';
import { HostpayError } from '../errors.js';

/**
 * Turns the first schema violation into a message that says what to fix. Query problems map by
 * parameter (amount -> INVALID_AMOUNT, currency -> INVALID_CURRENCY, anything else -> INVALID_QUERY);
 * body problems are INVALID_BODY. Repeated and unknown parameters are reported before the rest,
 * so the answer does not depend on the schema's property order.
 */
type Props = Record<string, TSchema>;

export function queryError(schema: TSchema, query: unknown, first: ValueError | undefined): HostpayError {
  const props: Props = (schema as { properties?: Props }).properties ?? {};
  const accepted = Object.keys(props);
  const values = (query ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(values)) {
    if (Array.isArray(values[name])) {
      return new HostpayError('INVALID_QUERY', `query parameter \`${name}\` is given more than once: send it once`, {
        parameter: name,
      });
    }
    if (!Object.hasOwn(props, name)) {
      const list = accepted.length > 0 ? `accepts only ${accepted.join(', ')}` : 'takes no query parameters';
      return new HostpayError('INVALID_QUERY', `unknown query parameter \`${name}\`: this endpoint ${list}`, {
        parameter: name,
      });
    }
  }
  const name = first?.path.split('/')[1] ?? '';
  const value = values[name];
  if (name === 'amount') {
    const reason = typeof value === 'string' ? parseAmountReason(value) : 'is required';
    return new HostpayError(
      'INVALID_AMOUNT',
      `query parameter \`amount\` ${reason}: send the checkout amount as a positive decimal, e.g. amount=99.95`,
      { parameter: 'amount' },
    );
  }
  if (name === 'currency') {
    const reason = typeof value === 'string' ? 'must be 2 to 12 letters or digits' : 'is required';
    return new HostpayError(
      'INVALID_CURRENCY',
      `query parameter \`currency\` ${reason}: send a currency or asset code, e.g. currency=EUR or currency=USDT`,
      { parameter: 'currency' },
    );
  }
  const prop = Object.hasOwn(props, name) ? props[name] : undefined;
  const expected = prop ? describeValue(prop) : 'a valid value';
  return new HostpayError('INVALID_QUERY', `query parameter \`${name}\` is invalid: expected ${expected}`, {
    parameter: name,
  });
}

export function bodyError(schema: TSchema, first: ValueError | undefined): HostpayError {
  const field = first?.path.slice(1).replaceAll('/', '.') ?? '';
  const where = field === '' ? 'request body' : `request body field \`${field}\``;
  const hint = typeof schema.description === 'string' ? ` (${schema.description})` : '';
  return new HostpayError('INVALID_BODY', `${where}: ${first?.message ?? 'invalid'}${hint}`);
}

/** A header or path segment that does not match its schema (other headers are not ours to judge). */
export function partError(part: 'headers' | 'params', schema: TSchema, first: ValueError | undefined): HostpayError {
  const name = first?.path.split('/')[1] ?? '';
  const props: Props = (schema as { properties?: Props }).properties ?? {};
  const prop = Object.hasOwn(props, name) ? props[name] : undefined;
  const expected = prop ? describeString(prop) : 'a valid value';
  const where = part === 'headers' ? `header \`${name}\`` : `path segment \`${name}\``;
  return new HostpayError(
    part === 'headers' ? 'INVALID_HEADER' : 'INVALID_QUERY',
    `${where} is invalid: expected ${expected}`,
    {
      [part === 'headers' ? 'header' : 'parameter']: name,
    },
  );
}

function parseAmountReason(text: string): string {
  const check = parseAmount(text);
  return check.ok ? 'is invalid' : check.reason;
}

/** What a query parameter takes, in words: a range of whole numbers, a list of values, a time or text. */
function describeValue(schema: TSchema): string {
  if (schema.type === 'integer')
    return `a whole number from ${String(schema.minimum ?? 'any')} to ${String(schema.maximum ?? 'any')}`;
  const choices = Array.isArray(schema.anyOf) ? (schema.anyOf as TSchema[]).map((s) => s.const) : [];
  if (choices.length > 0 && choices.every((c) => typeof c === 'string')) return `one of ${choices.join(', ')}`;
  if (schema.format === 'date-time') return ISO_TIME_HELP;
  return describeString(schema);
}

function describeString(schema: TSchema): string {
  const parts = ['text'];
  if (typeof schema.minLength === 'number')
    parts.push(`of ${schema.minLength} to ${String(schema.maxLength ?? 'any')} characters`);
  if (typeof schema.pattern === 'string') parts.push(`matching ${schema.pattern}`);
  return parts.join(' ');
}
