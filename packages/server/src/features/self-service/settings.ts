import { HostpayError } from '../../errors.js';
import { isDataImage, LOGO_DATA_URL_MAX, LOGO_URL_MAX, logoOrigin } from '../../http/page-headers.js';
import { addressAllowed, addressKind } from '../../outbound/addresses.js';
import { bareHost } from '../../outbound/guard.js';
import { nowIso } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { Caches } from '../../cache/caches.js';
import { recordAudit } from '../audit/service.js';
import { checkReturnUrl } from '../checkouts/create-input.js';
import { recordSecurity } from '../merchant-users/security-log.js';
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
}
export type SettingsPatch = Partial<MerchantSettings>;

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

const view = (r: {
  display_name: string | null;
  logo_url: string | null;
  default_success_url: string | null;
  default_cancel_url: string | null;
}): MerchantSettings => ({
  displayName: r.display_name,
  logoUrl: r.logo_url,
  successUrl: r.default_success_url,
  cancelUrl: r.default_cancel_url,
});

export function settingsService(deps: { store: Store; caches: Caches; sandbox: boolean }) {
  const { store, caches, sandbox } = deps;
  const read = async (merchantId: string, db = store.db) => {
    const row = await db
      .selectFrom('merchants')
      .select(['display_name', 'logo_url', 'default_success_url', 'default_cancel_url'])
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (row === undefined) throw new HostpayError('NOT_FOUND', `merchant ${merchantId} does not exist`);
    return row;
  };
  return {
    get: async (merchantId: string) => view(await read(merchantId)),

    /** Sets the fields given (null clears one); in the audit and security logs as done by `user`. */
    async update(user: DashboardUser, patch: SettingsPatch): Promise<MerchantSettings> {
      const merchantId = user.merchantId;
      const set: Record<string, string | null> = {};
      if (patch.displayName !== undefined) set.display_name = checkDisplayName(patch.displayName);
      if (patch.logoUrl !== undefined) set.logo_url = checkLogo(patch.logoUrl, sandbox);
      if (patch.successUrl !== undefined)
        set.default_success_url = checkReturnUrl('successUrl', patch.successUrl || undefined, sandbox);
      if (patch.cancelUrl !== undefined)
        set.default_cancel_url = checkReturnUrl('cancelUrl', patch.cancelUrl || undefined, sandbox);
      const after = await store.writeTransaction(async (trx) => {
        const before = await read(merchantId, trx);
        if (Object.keys(set).length === 0) return before;
        await trx
          .updateTable('merchants')
          .set({ ...set, updated_at: nowIso() })
          .where('id', '=', merchantId)
          .execute();
        const next = { ...before, ...set };
        // The logo may be 64 KB of base64: the audit entry says whether it changed, not what it is.
        const brief = (r: typeof before) => ({
          ...view(r),
          logoUrl: r.logo_url === null ? null : logoNote(r.logo_url),
        });
        await recordAudit(trx, auditOf(user), {
          action: 'merchant.settings.update',
          objectType: 'merchant',
          objectId: merchantId,
          before: brief(before),
          after: brief(next),
        });
        await recordSecurity(trx, nowIso(), {
          merchantId,
          userId: user.userId,
          userEmail: user.email,
          action: 'settings.changed',
          ip: user.ip,
          details: { changed: Object.keys(patch).filter((k) => patch[k as keyof SettingsPatch] !== undefined) },
        });
        return next;
      });
      // Checkout creation reads the default URLs through the merchant terms cache (checkouts/service.ts).
      await caches.invalidate({ kind: 'keys' });
      return view(after);
    },
  };
}

function logoNote(url: string): string {
  return url.startsWith('data:') ? `${url.slice(0, url.indexOf(','))},… (${url.length} characters)` : url;
}

export type SettingsService = ReturnType<typeof settingsService>;
