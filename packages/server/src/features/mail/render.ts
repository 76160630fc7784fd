import type { SecretBox } from '../../crypto/secret-box.js';
import { ENGLISH } from '../../i18n/messages.js';
import type { Db } from '../../store/store.js';
import { mailOwner } from './enqueue.js';
import { mailSpeech, payerMailLanguage } from './language.js';
import { type MailBrand, oneLine, type Rendered, renderMail } from './layout.js';
import type { MailOutboxTable } from './tables.js';
import type { MailTemplate } from './templates.js';

/** The merchant a mail is sent in the name of, as the layout and the headers need it. */
export interface Sender extends MailBrand {
  supportEmail: string | null;
}

export async function senderOf(db: Db, merchantId: string | null): Promise<Sender> {
  if (merchantId === null) return { name: null, logoUrl: null, supportEmail: null };
  const m = await db
    .selectFrom('merchants')
    .select(['name', 'display_name', 'logo_url', 'support_email', 'brand_color', 'accent_color'])
    .where('id', '=', merchantId)
    .executeTakeFirst();
  if (m === undefined) return { name: null, logoUrl: null, supportEmail: null };
  return {
    name: m.display_name ?? m.name,
    logoUrl: m.logo_url,
    supportEmail: m.support_email,
    brandColor: m.brand_color,
    accentColor: m.accent_color,
  };
}

export interface RenderDeps {
  db: Db;
  box: Pick<SecretBox, 'open'>;
  baseUrl: () => string;
  sandbox: boolean;
  templates: () => readonly MailTemplate[];
}

type Row = Pick<MailOutboxTable, 'id' | 'kind' | 'merchant_id' | 'to_role' | 'data' | 'data_sealed'>;

/** A mail row's data: in clear, or opened from its seal; null once deleted (7 days after sending). */
export function dataOf(row: Row, box: Pick<SecretBox, 'open'>): Record<string, unknown> | null {
  if (row.data !== null) return JSON.parse(row.data) as Record<string, unknown>;
  if (row.data_sealed !== null)
    return JSON.parse(box.open(row.data_sealed, mailOwner(row.id)).toString('utf8')) as Record<string, unknown>;
  return null;
}

/** Renders a mail row with its template and the one layout; null when its data is gone. */
export async function renderRow(
  deps: RenderDeps,
  row: Row,
  sender?: Sender,
): Promise<(Rendered & { sender: Sender }) | null> {
  const data = dataOf(row, deps.box);
  if (data === null) return null;
  const who = sender ?? (await senderOf(deps.db, row.merchant_id));
  const template = deps.templates().find((t) => t.kind === row.kind);
  if (template === undefined)
    throw new Error(`no mail template of kind ${row.kind}: register the feature that contributes it`);
  const senderName = who.name === null ? 'hostpay' : oneLine(who.name);
  // Payers read their mail in their language (language.ts); dashboard users and operators in English.
  const payer = row.to_role === 'payer';
  const speech = payer ? mailSpeech(await payerMailLanguage(deps.db, row.merchant_id, data)) : ENGLISH;
  const content = await template.render(data, { db: deps.db, baseUrl: deps.baseUrl(), senderName, speech });
  const footer = payer
    ? speech.t(who.supportEmail === null ? 'mail.footerPayer' : 'mail.footerPayerReply', {
        why: content.why,
        sender: senderName,
      })
    : speech.t('mail.footerUser', { why: content.why, sender: senderName });
  const text = { subject: content.subject, blocks: content.blocks, footer };
  // The merchant's colours are for their payers; their own team's mail keeps hostpay's look.
  const look = payer ? who : { ...who, brandColor: null, accentColor: null };
  return {
    ...renderMail(
      look,
      content.preheader === undefined ? text : { ...text, preheader: content.preheader },
      deps.sandbox,
      speech,
    ),
    sender: who,
  };
}
