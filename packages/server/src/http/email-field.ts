import { checkEmail } from '@hostpay/protocol';
import { HostpayError } from '../errors.js';

/**
 * An email field of a request, a setting or a mail (spec/commerce.md, "Email"): the protocol's one
 * check (surrounding spaces trimmed, the domain lower-cased), or 400 INVALID_EMAIL naming the
 * field and what is wrong with it.
 */
export function emailField(field: string, text: string): string {
  const checked = checkEmail(text);
  if (!checked.ok)
    throw new HostpayError(
      'INVALID_EMAIL',
      `${field} ${checked.reason}: an email address is one plain address such as name@example.com`,
      { field },
    );
  return checked.value;
}
