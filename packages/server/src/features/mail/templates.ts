import { formatDateTime } from '../../i18n/format.js';
import type { Lang } from '../../i18n/languages.js';
import type { MessageKey, Speech } from '../../i18n/messages.js';
import type { Db } from '../../store/store.js';
import type { Block } from './layout.js';

/** What a template makes of a mail's data: the layout (layout.ts) does the rest. */
export interface MailContent {
  subject: string;
  /** The inbox's preview line; else the first paragraph. */
  preheader?: string;
  blocks: readonly Block[];
  /** Why the recipient gets it (the footer says who sent it too). */
  why: string;
}

export interface TemplateContext {
  /** The store, to read what a mail refers to (a notification's event). */
  db: Db;
  /** The server's public base URL (links to the dashboard and the pages). */
  baseUrl: string;
  /** The merchant's shown name, or 'hostpay'. */
  senderName: string;
  /**
   * The mail's language (render.ts): a payer's mail is in the payer's language (language.ts),
   * everything else in English. Links to public pages go through `linkInLanguage` with it.
   */
  speech: Speech;
}

/**
 * One kind of mail: a feature that sends mail of its own kind (receipts, invoices, refund links)
 * contributes its template to the mail feature's point `mailTemplates` and enqueues rows of that
 * kind (docs/mail.md, "Sending a mail from a feature").
 */
export interface MailTemplate {
  kind: string;
  render(data: Record<string, unknown>, ctx: TemplateContext): Promise<MailContent> | MailContent;
}

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** Kinds of mail other features send through the mail outbox (features/mail). */
    mailTemplates: MailTemplate;
  }
}

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
/** A moment in the mail's language (its messages say UTC). */
const at = (lang: Lang, iso: unknown) => (typeof iso === 'string' ? formatDateTime(lang, iso) : '');

// The dashboard users' mails below are in English for now (render.ts gives them `ENGLISH`); their
// words are `mail.*` messages all the same, so they follow a language the day they get one.

const invitation: MailTemplate = {
  kind: 'invitation',
  render: (d, { senderName: sender, speech: { lang, t } }) => ({
    subject: t('mail.inviteSubject', { sender }),
    blocks: [
      { p: t('mail.inviteBody', { sender, role: str(d.role, t('mail.inviteMember')) }) },
      { p: t('mail.inviteFollow') },
      { button: { label: t('mail.inviteAccept'), url: str(d.link) } },
      { small: t('mail.inviteNote', { date: at(lang, d.expiresAt) }) },
    ],
    why: typeof d.email === 'string' ? t('mail.inviteWhy', { email: d.email }) : t('mail.inviteWhyYou'),
  }),
};

const passwordReset: MailTemplate = {
  kind: 'password-reset',
  render: (d, { senderName: sender, speech: { lang, t } }) => ({
    subject: t('mail.resetSubject', { sender }),
    blocks: [
      { p: t('mail.resetFollow') },
      { button: { label: t('mail.resetChoose'), url: str(d.link) } },
      { small: t('mail.resetNote', { date: at(lang, d.expiresAt) }) },
    ],
    why: t('mail.resetWhy'),
  }),
};

/** The security notices (always sent): what happened, in words. */
const NOTICES: Record<string, MessageKey> = {
  'password.changed': 'mail.securityPasswordChanged',
  'password.reset': 'mail.securityPasswordReset',
  'totp.enrolled': 'mail.securityTotpEnrolled',
  'key.created': 'mail.securityKeyCreated',
  'key.rolled': 'mail.securityKeyRolled',
  'key.revoked': 'mail.securityKeyRevoked',
};
export const SECURITY_NOTICE_ACTIONS = Object.keys(NOTICES);

const security: MailTemplate = {
  kind: 'security',
  render: (d, ctx) => {
    const { lang, t } = ctx.speech;
    const rows: [string, string][] = [[t('mail.securityWhen'), at(lang, d.at)]];
    if (typeof d.by === 'string') rows.push([t('mail.securityBy'), d.by]);
    if (typeof d.ip === 'string') rows.push([t('mail.securityFrom'), d.ip]);
    if (typeof d.keyId === 'string') rows.push([t('mail.securityKey'), d.keyId]);
    const key = NOTICES[str(d.action)];
    const notice = key === undefined ? str(d.action) : t(key);
    return {
      subject: t('mail.securitySubject', { notice }),
      blocks: [
        { p: key === undefined ? t('mail.securityUnknown', { action: str(d.action) }) : notice },
        { rows },
        { p: t('mail.securityCheck') },
        { button: { label: t('mail.openDashboard'), url: `${ctx.baseUrl}/dashboard` } },
      ],
      why: t('mail.securityWhy', { sender: ctx.senderName }),
    };
  },
};

/** The merchant notifications, by preference name: what each says, and its subject's words. */
const NOTIFICATIONS: Record<string, { text: MessageKey; title: MessageKey }> = {
  checkoutSettled: { text: 'mail.notifyCheckoutSettled', title: 'mail.notifyCheckoutSettledTitle' },
  checkoutNeedsReview: { text: 'mail.notifyCheckoutNeedsReview', title: 'mail.notifyCheckoutNeedsReviewTitle' },
  payoutCompleted: { text: 'mail.notifyPayoutCompleted', title: 'mail.notifyPayoutCompletedTitle' },
  payoutFailed: { text: 'mail.notifyPayoutFailed', title: 'mail.notifyPayoutFailedTitle' },
  refundCompleted: { text: 'mail.notifyRefundCompleted', title: 'mail.notifyRefundCompletedTitle' },
  webhookEndpointDisabled: {
    text: 'mail.notifyWebhookEndpointDisabled',
    title: 'mail.notifyWebhookEndpointDisabledTitle',
  },
};

const notification: MailTemplate = {
  kind: 'notification',
  async render(d, ctx) {
    const { lang, t } = ctx.speech;
    const event = await ctx.db
      .selectFrom('events')
      .select(['type', 'data', 'created_at'])
      .where('id', '=', str(d.eventId))
      .executeTakeFirst();
    const object =
      event === undefined ? {} : ((JSON.parse(event.data) as { object?: Record<string, unknown> }).object ?? {});
    // The event's own fields, named as the API names them.
    const rows: [string, string][] = [];
    for (const k of ['id', 'status', 'amount', 'currency', 'asset', 'total', 'orderId', 'url', 'disabledReason'])
      if (typeof object[k] === 'string' || typeof object[k] === 'number') rows.push([k, String(object[k])]);
    if (event !== undefined) rows.push(['at', at(lang, event.created_at)]);
    const kind = NOTIFICATIONS[str(d.preference)];
    const type = str(d.type);
    const title = kind === undefined ? t('mail.notifyUnknownTitle', { type }) : t(kind.title);
    return {
      subject: t('mail.notifySubject', { sender: ctx.senderName, title }),
      blocks: [
        { p: kind === undefined ? t('mail.notifyUnknown', { type }) : t(kind.text) },
        { rows },
        { button: { label: t('mail.openDashboard'), url: `${ctx.baseUrl}/dashboard` } },
      ],
      why: t('mail.notifyWhy', { sender: ctx.senderName }),
    };
  },
};

/** The mail feature's own kinds. */
export const BUILT_IN_TEMPLATES: readonly MailTemplate[] = [invitation, passwordReset, security, notification];
