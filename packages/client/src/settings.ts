import { write } from './calls.js';
import type { Transport } from './transport.js';
import type { ReadOptions, WriteOptions } from './types.js';

/** GET and PATCH /api/v1/cp/settings (protocol SETTINGS_PATHS). */
export const SETTINGS_PATH = '/api/v1/cp/settings';

/** A payer language a merchant may choose as its default (protocol SETTINGS_LANGUAGES). */
export type SettingsLanguage = 'en' | 'es' | 'pt-BR' | 'fr' | 'de' | 'it' | 'tr' | 'ru' | 'zh-CN' | 'ja' | 'ar';

/** The merchant's settings (protocol MerchantSettings); colours are lowercase `#rrggbb`. */
export interface MerchantSettings {
  displayName: string | null;
  logoUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  legalName: string | null;
  address: string | null;
  taxId: string | null;
  supportEmail: string | null;
  invoicePrefix: string | null;
  emailReceipts: boolean;
  /** The public pages' buttons and top band (white text on it); at least 4.5:1 against white. */
  brandColor: string | null;
  /** Links and focus rings; at least 4.5:1 on the pages' light backgrounds. */
  accentColor: string | null;
  /** The pages' and payer mails' language when the payer asks for none we have. */
  language: SettingsLanguage | null;
}

/** A change (protocol UpdateSettingsBody): only the fields given change; `null` clears one. Colours may be `#rgb`. */
export type UpdateSettingsParams = {
  [K in keyof MerchantSettings]?: K extends 'emailReceipts' ? boolean : string | null;
};

/**
 * The merchant's own settings (`client.settings`): GET needs checkout:read, update checkout:write.
 * A colour below WCAG AA is an INVALID_BODY HostpayError whose message gives the measured ratio
 * and the nearest shade that passes.
 */
export class Settings {
  constructor(private readonly transport: Transport) {}

  async get(options: ReadOptions = {}): Promise<MerchantSettings> {
    const spec = {
      method: 'GET',
      path: SETTINGS_PATH,
      query: { merchantId: options.merchantId },
      auth: 'bearer',
    } as const;
    return (await this.transport.call(spec, options)) as MerchantSettings;
  }

  /** Changes the fields given (PATCH, with an Idempotency-Key); answers the settings as changed. */
  async update(params: UpdateSettingsParams, options: WriteOptions = {}): Promise<MerchantSettings> {
    return (await write(this.transport, 'PATCH', SETTINGS_PATH, params, options)) as MerchantSettings;
  }
}
