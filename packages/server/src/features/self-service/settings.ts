import { HostpayError } from '../../errors.js';
import { emailField } from '../../http/email-field.js';
import { isDataImage, LOGO_DATA_URL_MAX, LOGO_URL_MAX, logoOrigin } from '../../http/page-headers.js';
import { addressAllowed, addressKind } from '../../outbound/addresses.js';
import { bareHost } from '../../outbound/guard.js';
import { nowIso } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { Caches } from '../../cache/caches.js';
import { recordAudit } from '../audit/service.js';
import { checkReturnUrl } from '../checkouts/create-input.js';
import { recordSecurity } from '../merchant-users/security-log.js';
import { isLang, LANG_CODES, type Lang } from '../../i18n/languages.js';
import { colourRefusal, normalHex } from './brand.js';
import { LOOK_SCOPE } from './look.js';
import { auditOf, type DashboardUser } from './user.js';

/**
 * A merchant's own page settings (dashboard, GET/PATCH /dashboard/api/settings; migration 020):
 * the name and logo the hosted payment page shows, and the return URLs a checkout gets when its
 * request names none. Every field may be null (an empty string clears it too) (the default: the page shows the merchant's name,
 * no logo; a checkout without URLs has none).
 *
 * The logo is either a small inline image (`data:image/png|jpeg|webp;base64,…`, at most
 * LOGO_DATA_URL_MAX characters: the page's CSP already allows data: images and the payer's
 * browser fetches nothing) or an https URL (the page's CSP then allows exactly that origin,
 * http/page-headers.ts). SVG is refused: it can carry script when opened on its own.
 */
export interface MerchantSettings {
  displayName: string | null;
  logoUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  /** Seller details on invoices and receipts (spec/commerce.md); `supportEmail` is also the mails' Reply-To. */
  legalName: string | null;
  address: string | null;
  taxId: string | null;
  supportEmail: string | null;
  /** Invoice numbers' prefix (`INV` when null): 1–10 letters, digits or dashes. */
  invoicePrefix: string | null;
  /** Whether a checkout's `customerEmail` is mailed its receipt (default true). */
  emailReceipts: boolean;
  /** The public pages' buttons and top band (white text on it): lowercase #rrggbb, AA against white (brand.ts). */
  brandColor: string | null;
  /** Links and focus rings on the light grounds (a derived shade in dark mode): lowercase #rrggbb, AA (brand.ts). */
  accentColor: string | null;
  /** The pages' and payer mails' language when the payer asks for none we have (i18n/languages.ts); null: English. */
  language: Lang | null;
}
/** A patch as a request sends it (the language is checked against the codes). */
export type SettingsPatch = Partial<Omit<MerchantSettings, 'language'>> & { language?: string | null };

/** Who changes the settings: a dashboard user, or an API key (PATCH /api/v1/cp/settings). */
export type SettingsActor =
  | DashboardUser
  | { merchantId: string; keyId: string; ip: string | null; requestId?: string | undefined };

const auditOfActor = (actor: SettingsActor) =>
  'keyId' in actor
    ? { operator: `key:${actor.keyId}`, ...(actor.requestId === undefined ? {} : { requestId: actor.requestId }) }
    : auditOf(actor);

export const DISPLAY_NAME_MAX = 100;
// Control characters and the line/paragraph separators: a display name is one line of text.
const CONTROL = /\p{Cc}|[\u2028\u2029]/u;

function bad(field: string, message: string): never {
  throw new HostpayError('INVALID_BODY', `${field} ${message}`, { field });
}

function checkDisplayName(v: string | null): string | null {
  if (v === null) return null;
  const t = v.trim();
  if (t === '') return null;
  if (t.length > DISPLAY_NAME_MAX) bad('displayName', `must be at most ${DISPLAY_NAME_MAX} characters`);
  if (CONTROL.test(t)) bad('displayName', 'must be one line of text without control characters');
  return t;
}

/** Names that lead a payer's browser into its own machine or network, never to the merchant's site. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/;

/**
 * Why a logo's host is refused, or null: the payer's browser fetches the logo, so a loopback,
 * private, link-local or otherwise non-public literal address (in any spelling the URL parser
 * folds into one: `127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`), a local name (`localhost`,
 * `*.local`, …) or a one-label name would make every payer's browser request its own machine or
 * network. A sandbox (`serve --demo`) allows loopback, as its return URLs do. Names are not
 * resolved: the payer's browser resolves them, not this server.
 */
export function logoHostRefusal(url: URL, sandbox: boolean): string | null {
  const host = bareHost(url).toLowerCase();
  const kind = addressKind(host);
  if (kind !== undefined)
    return addressAllowed(kind, sandbox)
      ? null
      : `${host} is ${kind === 'loopback' ? 'a loopback' : `a ${kind}`} address`;
  if (sandbox && (host === 'localhost' || host.endsWith('.localhost'))) return null;
  if (LOCAL_NAME.test(host)) return `${host} is a local name`;
  if (!host.includes('.')) return `${host} is not a public domain name`;
  return null;
}

function checkLogo(v: string | null, sandbox: boolean): string | null {
  if (v === null || v === '') return null;
  if (v.startsWith('data:')) {
    if (v.length > LOGO_DATA_URL_MAX)
      bad('logoUrl', `as a data URL must be at most ${LOGO_DATA_URL_MAX} characters (about 44 KB of image)`);
    if (!isDataImage(v)) bad('logoUrl', 'as a data URL must be data:image/png, image/jpeg or image/webp;base64,…');
    return v;
  }
  if (v.length > LOGO_URL_MAX) bad('logoUrl', `must be at most ${LOGO_URL_MAX} characters`);
  if (logoOrigin(v) === null)
    throw new HostpayError(
      'INVALID_URL',
      'logoUrl must be an https URL without user name or password (e.g. https://shop.example/logo.png), or a data:image/png|jpeg|webp;base64 URL',
      { field: 'logoUrl' },
    );
  const url = new URL(v);
  const refused = logoHostRefusal(url, sandbox);
  if (refused !== null)
    throw new HostpayError(
      'INVALID_URL',
      `logoUrl must be on a public host that payers' browsers can reach: ${refused}${sandbox ? '' : ' (loopback logos are allowed only on a sandbox server)'}; host the logo on your site or upload a small image instead`,
      { field: 'logoUrl' },
    );
  return url.href;
}

const COLUMNS = [
  'display_name',
  'logo_url',
  'default_success_url',
  'default_cancel_url',
  'legal_name',
  'address',
  'tax_id',
  'support_email',
  'invoice_prefix',
  'email_receipts',
  'brand_color',
  'accent_color',
  'default_language',
] as const;

type SettingsRow = { [K in (typeof COLUMNS)[number]]: K extends 'email_receipts' ? number : string | null };

const view = (r: SettingsRow): MerchantSettings => ({
  displayName: r.display_name,
  logoUrl: r.logo_url,
  successUrl: r.default_success_url,
  cancelUrl: r.default_cancel_url,
  legalName: r.legal_name,
  address: r.address,
  taxId: r.tax_id,
  supportEmail: r.support_email,
  invoicePrefix: r.invoice_prefix,
  emailReceipts: r.email_receipts === 1,
  brandColor: r.brand_color,
  accentColor: r.accent_color,
  language: isLang(r.default_language) ? r.default_language : null,
});

/** A free-text seller field: trimmed, at most `max` characters, `lines` lines (an address has several). */
function checkText(field: string, v: string | null, max: number, lines: number): string | null {
  if (v === null) return null;
  const t = v.replace(/\r\n?/g, '\n').trim();
  if (t === '') return null;
  if (t.length > max) bad(field, `must be at most ${max} characters`);
  const split = t.split('\n');
  if (split.length > lines) bad(field, `must be at most ${lines} line${lines === 1 ? '' : 's'}`);
  if (split.some((line) => CONTROL.test(line))) bad(field, 'must not hold control characters');
  return t;
}

function checkSupportEmail(v: string | null): string | null {
  return v === null || v.trim() === '' ? null : emailField('supportEmail', v);
}

function checkPrefix(v: string | null): string | null {
  if (v === null || v.trim() === '') return null;
  const t = v.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9-]{0,9}$/.test(t))
    bad('invoicePrefix', 'must be 1 to 10 letters, digits or dashes, starting with a letter or digit (e.g. INV)');
  return t;
}

function checkColour(field: 'brandColor' | 'accentColor', v: string | null): string | null {
  if (v === null || v.trim() === '') return null;
  const hex = normalHex(v);
  if (hex === null) bad(field, 'must be a colour written #rgb or #rrggbb (e.g. #0b57d0), or null');
  const refused = colourRefusal(field, hex);
  if (refused !== null) throw new HostpayError('INVALID_BODY', refused, { field });
  return hex;
}

function checkLanguage(v: string | null): Lang | null {
  if (v === null || v.trim() === '') return null;
  if (!isLang(v)) bad('language', `must be one of ${LANG_CODES.join(', ')}, or null`);
  return v;
}

export function settingsService(deps: { store: Store; caches: Caches; sandbox: boolean }) {
  const { store, caches, sandbox } = deps;
  const read = async (merchantId: string, db = store.db) => {
    const row = await db
      .selectFrom('merchants')
      .select([...COLUMNS])
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (row === undefined) throw new HostpayError('NOT_FOUND', `merchant ${merchantId} does not exist`);
    return row;
  };
  return {
    get: async (merchantId: string) => view(await read(merchantId)),

    /** Sets the fields given (null clears one); in the audit and security logs as done by `actor`. */
    async update(actor: SettingsActor, patch: SettingsPatch): Promise<MerchantSettings> {
      const merchantId = actor.merchantId;
      const byKey = 'keyId' in actor ? actor.keyId : null;
      const set: Partial<Omit<SettingsRow, 'email_receipts'>> & { email_receipts?: number } = {};
      if (patch.displayName !== undefined) set.display_name = checkDisplayName(patch.displayName);
      if (patch.logoUrl !== undefined) set.logo_url = checkLogo(patch.logoUrl, sandbox);
      if (patch.successUrl !== undefined)
        set.default_success_url = checkReturnUrl('successUrl', patch.successUrl || undefined, sandbox);
      if (patch.cancelUrl !== undefined)
        set.default_cancel_url = checkReturnUrl('cancelUrl', patch.cancelUrl || undefined, sandbox);
      if (patch.legalName !== undefined) set.legal_name = checkText('legalName', patch.legalName, 200, 1);
      if (patch.address !== undefined) set.address = checkText('address', patch.address, 500, 6);
      if (patch.taxId !== undefined) set.tax_id = checkText('taxId', patch.taxId, 50, 1);
      if (patch.supportEmail !== undefined) set.support_email = checkSupportEmail(patch.supportEmail);
      if (patch.invoicePrefix !== undefined) set.invoice_prefix = checkPrefix(patch.invoicePrefix);
      if (patch.emailReceipts !== undefined) set.email_receipts = patch.emailReceipts ? 1 : 0;
      if (patch.brandColor !== undefined) set.brand_color = checkColour('brandColor', patch.brandColor);
      if (patch.accentColor !== undefined) set.accent_color = checkColour('accentColor', patch.accentColor);
      if (patch.language !== undefined) set.default_language = checkLanguage(patch.language);
      const after = await store.writeTransaction(async (trx) => {
        const before = await read(merchantId, trx);
        if (Object.keys(set).length === 0) return before;
        await trx
          .updateTable('merchants')
          .set({ ...set, updated_at: nowIso() })
          .where('id', '=', merchantId)
          .execute();
        const next = { ...before, ...set } as SettingsRow;
        // The logo may be 64 KB of base64: the audit entry says whether it changed, not what it is.
        const brief = (r: typeof before) => ({
          ...view(r),
          logoUrl: r.logo_url === null ? null : logoNote(r.logo_url),
        });
        await recordAudit(trx, auditOfActor(actor), {
          action: 'merchant.settings.update',
          objectType: 'merchant',
          objectId: merchantId,
          before: brief(before),
          after: brief(next),
        });
        await recordSecurity(trx, nowIso(), {
          merchantId,
          userId: 'keyId' in actor ? null : actor.userId,
          userEmail: 'keyId' in actor ? null : actor.email,
          action: 'settings.changed',
          ip: actor.ip,
          details: {
            changed: Object.keys(patch).filter((k) => patch[k as keyof SettingsPatch] !== undefined),
            ...(byKey === null ? {} : { key: byKey }),
          },
        });
        return next;
      });
      // Checkout creation reads the default URLs through the merchant terms cache (checkouts/service.ts).
      await caches.invalidate({ kind: 'keys' });
      // The public pages read colours and language through merchantLook (look.ts).
      await caches.invalidate({ kind: LOOK_SCOPE, merchantId });
      return view(after);
    },
  };
}

function logoNote(url: string): string {
  return url.startsWith('data:') ? `${url.slice(0, url.indexOf(','))},… (${url.length} characters)` : url;
}

export type SettingsService = ReturnType<typeof settingsService>;
