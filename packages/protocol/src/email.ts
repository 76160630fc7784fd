/**
 * Email addresses as the contract takes them (spec/commerce.md, "Email"): one addr-spec of at
 * most 254 characters, no display name, no CR, LF or comma. The shape is the WHATWG HTML
 * definition of a valid email address (what `<input type=email>` accepts), so a payer's browser and
 * the server agree on what is valid; it admits no quoted local part, comment or whitespace, so
 * nothing accepted here can carry a second header or a second recipient.
 */
const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const EMAIL_MAX_LENGTH = 254;

/**
 * The schema's bound on an email field: well above EMAIL_MAX_LENGTH, so an address that is too long
 * is answered by checkEmail (INVALID_EMAIL, with the reason) rather than by the schema (INVALID_BODY).
 */
export const EMAIL_FIELD_MAX = 1024;

export type EmailCheck = { ok: true; value: string } | { ok: false; reason: string };

/** The address as stored (surrounding spaces trimmed, the domain lower-cased), or why it is refused. */
export function checkEmail(text: string): EmailCheck {
  // Line breaks anywhere, even trailing ones trim() would drop: an address never holds one.
  if (/[\r\n,<>]/.test(text))
    return { ok: false, reason: 'must be one address without a display name (no line breaks, commas or <>)' };
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, reason: 'is empty' };
  if (trimmed.length > EMAIL_MAX_LENGTH) return { ok: false, reason: `is longer than ${EMAIL_MAX_LENGTH} characters` };
  if (!WHATWG_EMAIL.test(trimmed)) return { ok: false, reason: 'is not an email address like name@example.com' };
  const at = trimmed.lastIndexOf('@');
  // Stricter than WHATWG where mail servers are: RFC 5321's 64-character local part, and a domain
  // of at least two labels (a bare host name is no address anyone outside a network can mail).
  if (at > 64) return { ok: false, reason: 'has a local part (before @) longer than 64 characters' };
  if (!trimmed.slice(at + 1).includes('.'))
    return { ok: false, reason: 'has a domain that is not a host name (example.com)' };
  return { ok: true, value: `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}` };
}
