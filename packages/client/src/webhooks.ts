/**
 * Verifies a webhook from hostpay as Standard Webhooks defines it: `webhook-signature` holds one
 * or more space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`,
 * keyed with the base64-decoded part of the `whsec_` secret; the timestamp must be within
 * `tolerance` seconds of now (default 300). Pass the body exactly as received (the raw text or
 * bytes, never a re-serialised JSON.parse result). Web Crypto only: works on Node, Deno, Bun,
 * edge runtimes and browsers.
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_secret'
  | 'no_matching_signature';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** The current time: a Date, or epoch milliseconds (a number below 10^11 is read as Unix seconds). Default: now. */
  now?: number | Date;
  /** Accepted |now − webhook-timestamp|, in seconds. Default 300. */
  tolerance?: number;
}

/** Headers as fetch (`Headers`), Node (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

const utf8 = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue;
    const value = record[key];
    return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function bytesBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Compares without an early exit, so the time taken says nothing about where strings differ. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/** Resolves to true when the webhook is authentic and fresh; rejects with WebhookVerificationError otherwise. */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<true> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      'missing_header',
      'webhook-id, webhook-timestamp and webhook-signature are all required',
    );
  if (!/^\d{1,15}$/.test(timestamp))
    throw new WebhookVerificationError(
      'invalid_timestamp',
      `webhook-timestamp must be Unix seconds, got ${JSON.stringify(timestamp.slice(0, 20))}`,
    );
  const nowOption = options.now ?? Date.now();
  const nowMs = nowOption instanceof Date ? nowOption.getTime() : nowOption < 1e11 ? nowOption * 1000 : nowOption;
  const tolerance = options.tolerance ?? 300;
  const skew = Math.floor(nowMs / 1000) - Number(timestamp);
  if (skew > tolerance)
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `webhook-timestamp is ${skew} s old (more than ${tolerance} s): a replay, or a clock that is off`,
    );
  if (-skew > tolerance)
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `webhook-timestamp is ${-skew} s in the future (more than ${tolerance} s): check the clock`,
    );
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  } catch {
    throw new WebhookVerificationError(
      'invalid_secret',
      'the secret must be whsec_ followed by base64, as hostpay showed it',
    );
  }
  const bodyBytes = typeof body === 'string' ? utf8.encode(body) : body;
  const prefix = utf8.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix, 0);
  signed.set(bodyBytes, prefix.length);
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = bytesBase64(await crypto.subtle.sign('HMAC', cryptoKey, signed));
  for (const candidate of signatures.split(' ')) {
    const comma = candidate.indexOf(',');
    if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
    if (sameText(candidate.slice(comma + 1), expected)) return true;
  }
  throw new WebhookVerificationError(
    'no_matching_signature',
    "no v1 signature matches: verify the raw body exactly as received with the endpoint's current whsec_ secret",
  );
}
