import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_FIELD_MAX } from './email.js';

/**
 * The merchant's own settings (GET and PATCH /api/v1/cp/settings; the dashboard's settings page
 * edits the same through /dashboard/api/settings): what its public pages and mails show, and the
 * defaults a checkout gets. docs/api.md, "Settings"; docs/payment-page.md, "Branding".
 */
export const SETTINGS_PATHS = { settings: '/api/v1/cp/settings' } as const;

/** The payer languages a merchant may choose as its default (the server's i18n/languages.ts). */
export const SETTINGS_LANGUAGES = ['en', 'es', 'pt-BR', 'fr', 'de', 'it', 'tr', 'ru', 'zh-CN', 'ja', 'ar'] as const;

const Text = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Colour = (description: string) =>
  Type.Union([Type.String({ pattern: '^#[0-9a-f]{6}$' }), Type.Null()], { description });

export const MerchantSettings = Type.Object(
  {
    displayName: Text('the name the payment page shows instead of the merchant name; null: the merchant name'),
    logoUrl: Text('the logo on the payment page: an https URL or a small data:image URL; null: none'),
    successUrl: Text("a checkout's successUrl when its request names none; null: none"),
    cancelUrl: Text("a checkout's cancelUrl when its request names none; null: none"),
    legalName: Text('seller name printed on invoices and receipts'),
    address: Text('seller address printed on invoices and receipts (up to 6 lines)'),
    taxId: Text('seller tax id printed on invoices and receipts'),
    supportEmail: Text("printed on invoices and receipts, and the payer mails' Reply-To"),
    invoicePrefix: Text('the prefix of invoice numbers; null: INV'),
    emailReceipts: Type.Boolean({ description: "whether a checkout's customerEmail is mailed its receipt" }),
    brandColor: Colour(
      "the public pages' buttons and top band, white text on it (lowercase #rrggbb, at least 4.5:1 against white); null: the default palette",
    ),
    accentColor: Colour(
      "links and focus rings (lowercase #rrggbb, at least 4.5:1 on the pages' light backgrounds; dark mode uses the nearest lighter shade that passes there); null: the default palette",
    ),
    language: Type.Union([...SETTINGS_LANGUAGES.map((l) => Type.Literal(l)), Type.Null()], {
      description:
        "the language of the public pages and payer mails when the payer's browser asks for none of these (?lang= and the payer's choice come first); null: English",
    }),
  },
  { additionalProperties: false, $id: 'MerchantSettings' },
);
export type MerchantSettings = Static<typeof MerchantSettings>;

const Change = (t: ReturnType<typeof Type.String>, description: string) =>
  Type.Optional(Type.Union([t, Type.Null()], { description }));

/** PATCH /api/v1/cp/settings: only the fields given change; null (or an empty string) clears one. */
export const UpdateSettingsBody = Type.Object(
  {
    displayName: Change(Type.String({ maxLength: 200 }), 'one line, at most 100 characters once trimmed'),
    logoUrl: Change(
      Type.String({ maxLength: 61_000 }),
      'https URL on a public host, or data:image/png|jpeg|webp;base64',
    ),
    successUrl: Change(Type.String({ maxLength: 2048 }), 'https URL'),
    cancelUrl: Change(Type.String({ maxLength: 2048 }), 'https URL'),
    legalName: Change(Type.String({ maxLength: 400 }), 'one line, at most 200 characters'),
    address: Change(Type.String({ maxLength: 1000 }), 'at most 500 characters, 6 lines'),
    taxId: Change(Type.String({ maxLength: 100 }), 'one line, at most 50 characters'),
    supportEmail: Change(Type.String({ maxLength: EMAIL_FIELD_MAX }), 'one email address'),
    invoicePrefix: Change(Type.String({ maxLength: 20 }), '1 to 10 letters, digits or dashes'),
    emailReceipts: Type.Optional(Type.Boolean({ description: 'mail receipts to customerEmail' })),
    brandColor: Change(
      Type.String({ maxLength: 20 }),
      '#rgb or #rrggbb (stored lowercase #rrggbb); refused below 4.5:1 against white, the message giving the ratio and the nearest shade that passes',
    ),
    accentColor: Change(
      Type.String({ maxLength: 20 }),
      "#rgb or #rrggbb; refused below 4.5:1 on the pages' light backgrounds, the message giving the ratio and the nearest shade that passes",
    ),
    language: Change(Type.String({ maxLength: 10 }), `one of ${SETTINGS_LANGUAGES.join(', ')}`),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>;
