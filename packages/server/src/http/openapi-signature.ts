/**
 * What the OpenAPI document says about request signatures: the version-2
 * canonical string in `info.description` and the `signature` security scheme, the
 * `signature-version` header on every signed operation, and which operations still accept
 * version 1. A client generated from the document alone (openapi-typescript, @hey-api, orval)
 * must be able to sign its first write; test/openapi-signature.test.ts does exactly that.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SIGNED_STRING_V2 = '<timestamp>.<METHOD>.<canonical path?query>.<body>';
export const SIGNATURE_VERSION_HEADER = 'signature-version';
/** The extension naming the signature versions an operation accepts. */
export const VERSIONS_EXTENSION = 'x-signature-versions';
/** The anchor of the migration section (HOSTPAY_SIGNATURE_V1_DOCS_URL's default points here). */
export const MIGRATION_ANCHOR = 'migrating-from-signature-version-1';

export const SIGNATURE_SCHEME_DESCRIPTION =
  `Lowercase hex HMAC-SHA256, keyed with the API secret, of \`${SIGNED_STRING_V2}\` (signature version 2, ` +
  'sent with `signature-version: 2`): the method in upper case, the canonical path and query, and the compact JSON body ' +
  '(empty when there is none); the document description spells out the canonical form. The deprecated version 1 ' +
  '(`<timestamp>.<body>`, no `signature-version`) is accepted only by the operations whose `x-signature-versions` lists 1.';

/** `info.description` of the merchant API; `v1Operations` are "METHOD /path" lines. */
export function apiDescription(v1Operations: readonly string[]): string {
  return [
    'Wallets, fee previews, hosted checkouts, payouts, events and webhooks for merchants.',
    '',
    '## Signing requests (signature version 2)',
    '',
    'Every merchant request carries `api-key` (the key id, `hp_…`), `timestamp` (Unix time in whole seconds,',
    'within ±60 s of the server clock: see `GET /api/v1/time`), `signature-version: 2`, `signature` and, on every',
    'route but `POST /api/v1/auth/token`, `Authorization: Bearer <token>` (a token from that route).',
    '`signature` is the lowercase hex HMAC-SHA256, keyed with the API secret, of',
    '',
    `    ${SIGNED_STRING_V2}`,
    '',
    '- `METHOD` in upper case (`GET`, `POST`, `DELETE`);',
    '- the path and query as sent, in canonical form: each `/`-separated path segment percent-decoded once and',
    '  re-encoded, a trailing slash kept; the query split on `&`, empty parts dropped, each part split at its first',
    '  `=` (none: empty value), `+` read as a space, name and value percent-decoded once and re-encoded, the pairs',
    '  sorted by name, then value, and joined as `name=value` with `&`; no `?` when nothing is left. Encoding is',
    '  UTF-8 with every byte but `A-Z a-z 0-9 - . _ ~` written `%XX` in upper-case hex;',
    '- the body: the JSON text sent, in compact form (whitespace outside strings removed; key order, escapes and',
    '  number text as written). The exact bytes sent are accepted too. Empty when there is no body (GET).',
    '',
    'Example: `GET /api/v1/cp/psp/hosted-pay/fees-preview?currency=USDT&amount=250.5` at 1700000000 signs',
    '`1700000000.GET./api/v1/cp/psp/hosted-pay/fees-preview?amount=250.5&currency=USDT.` (empty body after the',
    'last dot).',
    '',
    'A signed write (any method but GET and HEAD) is accepted once: the same `api-key`, `timestamp` and `signature`',
    'again is 409 `SIGNATURE_REUSED` and does nothing. Retry with the same `Idempotency-Key` to get the first answer;',
    'a new request needs a fresh timestamp (the same write twice in one second signs the same: sign it in the next).',
    '',
    'Errors use one envelope `{status:false, isSuccess:false, message, result:null, error:{code, requestId, details?}}`.',
    '',
    `<a id="${MIGRATION_ANCHOR}"></a>`,
    '',
    '## Migrating from signature version 1',
    '',
    'Version 1 signs `<timestamp>.<body>` only and is sent without `signature-version` (or with `1`). It is',
    'deprecated: answers to it carry `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and',
    '`Link: <…>; rel="deprecation"`. Only these operations still accept it (their `signature-version` parameter',
    `is optional and their \`${VERSIONS_EXTENSION}\` is \`[1, 2]\`):`,
    '',
    ...v1Operations.map((op) => `- \`${op}\``),
    '',
    'Every other operation requires version 2 (`signature-version` required, `[2]`) and answers a correct',
    'version-1 signature with 401 `SIGNATURE_V2_REQUIRED`. To move, sign every request as above.',
  ].join('\n');
}

/**
 * Declares `signature-version` on every operation secured by the `signature` scheme: required
 * with the one value `2` where only version 2 is accepted, optional (`1` or `2`, absent meaning
 * 1) on the operations of `v1Operations` ("METHOD /path" as in the document). Each such operation
 * also lists the versions it accepts in `x-signature-versions`.
 */
export function declareSignatureVersion(doc: JsonObject, v1Operations: ReadonlySet<string>): void {
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !signed(op)) continue;
      const v1 = v1Operations.has(`${method.toUpperCase()} ${path}`);
      const parameters = Array.isArray(op.parameters) ? op.parameters : [];
      op.parameters = [
        ...parameters.filter((p) => !(isObject(p) && p.in === 'header' && p.name === SIGNATURE_VERSION_HEADER)),
        versionParameter(v1),
      ];
      op[VERSIONS_EXTENSION] = v1 ? [1, 2] : [2];
    }
  }
}

function signed(op: JsonObject): boolean {
  return Array.isArray(op.security) && op.security.some((req) => isObject(req) && 'signature' in req);
}

function versionParameter(v1: boolean): JsonObject {
  return v1
    ? {
        in: 'header',
        name: SIGNATURE_VERSION_HEADER,
        required: false,
        description: `2: \`signature\` signs \`${SIGNED_STRING_V2}\` (use it). Absent or 1: the deprecated version 1, \`<timestamp>.<body>\`, still accepted here (answered with Deprecation and Sunset headers).`,
        schema: { type: 'string', enum: ['1', '2'] },
      }
    : {
        in: 'header',
        name: SIGNATURE_VERSION_HEADER,
        required: true,
        description: `Always 2: \`signature\` signs \`${SIGNED_STRING_V2}\`. A version-1 signature is 401 SIGNATURE_V2_REQUIRED here.`,
        schema: { type: 'string', enum: ['2'] },
      };
}

/** "METHOD /path" of a route as the document names it (`:id` becomes `{id}`). */
export function operationName(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}
