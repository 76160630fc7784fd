/**
 * A webhook URL as lists, logs and events show it (docs/webhooks.md, "Stored sealed, shown
 * masked"). Merchants are told they may put a token in the URL to recognise hostpay's requests;
 * whoever reads a list, a log line or the store must not learn it. The rule:
 * - user info (`user:pass@`, refused since the first release but masked if ever stored) → `***@`;
 * - every query value → `***` (the names stay: they say what the endpoint expects, unless a name
 *   itself looks like a token, `?<token>`, which is cut like a path segment);
 * - a path segment that looks like a token (16 or more characters of `[A-Za-z0-9_.~=+-]`, or
 *   percent-encoded text of that length) → its first 4 characters and `…`;
 * - the fragment, never sent, is dropped.
 * Scheme, host, port and the other path segments stay, so the merchant still tells its endpoints apart.
 */
const TOKENISH = /^(?:[A-Za-z0-9_.~=+-]|%[0-9A-Fa-f]{2}){16,}$/;

export function maskWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(not a URL)';
  }
  const cut = (part: string) => (TOKENISH.test(part) ? `${part.slice(0, 4)}…` : part);
  const path = url.pathname.split('/').map(cut).join('/');
  const query = [...url.searchParams.keys()].map((k) => `${cut(encodeURIComponent(k))}=***`).join('&');
  const auth = url.username !== '' || url.password !== '' ? '***@' : '';
  return `${url.protocol}//${auth}${url.host}${path}${query === '' ? '' : `?${query}`}`;
}
