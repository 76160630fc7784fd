import { HostpayError } from '../errors.js';

/**
 * A NUL character is valid JSON but no text field of ours means it, and PostgreSQL cannot store
 * one (SQLite would): both stores refuse it the same way, before anything runs, naming the field.
 * Looked for only when the raw text holds an escape that could be one.
 */
export function nulError(raw: string, value: unknown): HostpayError | undefined {
  if (!raw.includes('u0000')) return undefined;
  const field = nulPath(value, '');
  if (field === undefined) return undefined;
  const where = field === '' ? 'request body text' : `request body field \`${field}\``;
  return new HostpayError('INVALID_BODY', `${where} contains a NUL character (\\u0000): remove it`, { field });
}

/** The dotted path of the first string (value or key) holding U+0000, if any. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (key.includes('\0')) return here;
    const found = nulPath(inner, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
