import type { Kysely } from 'kysely';

/**
 * v35 (docs/payment-page.md, "Branding"): the merchant's page colours, lowercase `#rrggbb` checked
 * for contrast when set (self-service/brand.ts), and the language its public pages and payer mails
 * use when the payer's browser asks for none we have (a code of i18n/languages.ts). All null for
 * existing merchants: their pages keep the default palette and English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['brand_color', 'accent_color', 'default_language'])
    await db.schema.alterTable('merchants').addColumn(column, 'text').execute();
}
