import { RefundBody, RefundLinkBody } from '@hostpay/protocol';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import { formatAmount, formatDateTime } from '../../i18n/format.js';
import { emailField } from '../../http/email-field.js';
import type { Db } from '../../store/store.js';
import { enqueueMail } from '../mail/enqueue.js';
import { linkInLanguage } from '../mail/language.js';
import type { MailTemplate } from '../mail/templates.js';

/** The mail kind of a refund link mailed to the payer (features/mail, docs/mail.md). */
export const REFUND_LINK_MAIL_KIND = 'refund-link';

// The bodies with their mail fields are the protocol's (RefundBody, RefundLinkBody).
export const RefundMailBody = RefundBody;
export const RefundLinkMailBody = RefundLinkBody;

/** What a refund call asks of the mail: `sendEmail`, and the address when not the checkout's. */
export interface RefundMailAsk {
  sendEmail?: boolean | undefined;
  customerEmail?: string | undefined;
}

/**
 * The body's mail fields, checked before anything is read: an address without `sendEmail` would
 * be mailed nothing (400 INVALID_BODY, rather than silently ignored); a malformed one is 400
 * INVALID_EMAIL. Answers the address given (checked), or null.
 */
export function givenAddress(ask: RefundMailAsk): string | null {
  if (ask.customerEmail === undefined) return null;
  if (ask.sendEmail !== true)
    throw new HostpayError(
      'INVALID_BODY',
      'customerEmail is the address a refund link is mailed to: send it with sendEmail: true, or leave it out',
      { field: 'customerEmail' },
    );
  return emailField('customerEmail', ask.customerEmail);
}

/**
 * Where the link goes when `sendEmail` is true: the address given, else the checkout's
 * `customerEmail`; 422 CUSTOMER_EMAIL_MISSING when neither is known. null when no mail is asked.
 */
export function mailTarget(
  ask: RefundMailAsk,
  given: string | null,
  checkout: { id: string; customer_email: string | null },
): string | null {
  if (ask.sendEmail !== true) return null;
  const to = given ?? checkout.customer_email;
  if (to === null)
    throw new HostpayError(
      'CUSTOMER_EMAIL_MISSING',
      `checkout ${checkout.id} has no customerEmail: give the payer's address as customerEmail with sendEmail, or send the link's URL to the payer yourself`,
      { field: 'customerEmail' },
    );
  return to;
}

export interface RefundLinkMail {
  merchantId: string;
  to: string;
  checkoutId: string;
  /** What the refund pays; `fixed` false: up to what is refundable when the payer gives the address. */
  amount: string;
  fixed: boolean;
  asset: string;
  /** The asset's network name on the chain (TRC20, ERC20, Bitcoin). */
  network: string;
  url: string;
  expiresAt: string;
  at: string;
}

/**
 * Writes the payer's mail of a refund link in the transaction that makes the link. Its data holds
 * the link's token: sealed at rest, deleted 7 days after sending; kept, not sent, on a sandbox.
 */
export function recordRefundLinkMail(trx: Db, mail: RefundLinkMail, box: Pick<SecretBox, 'seal'>): Promise<string> {
  const { merchantId, to, at, ...data } = mail;
  return enqueueMail(
    trx,
    { merchantId, kind: REFUND_LINK_MAIL_KIND, to, toRole: 'payer', data: { ...data }, secret: true },
    at,
    box,
  );
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The refund-link mail, in the payer's language (features/mail/language.ts): who refunds, how
 * much in what (the exact crypto amount), on which network, the link (opening in the mail's
 * language) and until when.
 */
export const refundLinkMailTemplate: MailTemplate = {
  kind: REFUND_LINK_MAIL_KIND,
  render(d, ctx) {
    const { lang, t } = ctx.speech;
    const sender = ctx.senderName;
    const network = str(d.network);
    const exact = formatAmount(lang, str(d.amount), str(d.asset), false);
    const amount = d.fixed === true ? exact : t('mail.refundUpTo', { amount: exact });
    const expiresAt = str(d.expiresAt);
    const until = expiresAt === '' ? '' : formatDateTime(lang, expiresAt);
    return {
      subject: t('mail.refundSubject', { sender, amount }),
      blocks: [
        { p: t('mail.refundBody', { sender, amount, network }) },
        {
          rows: [
            [t('mail.refundAmount'), amount],
            [t('mail.refundNetwork'), network],
            [t('mail.refundPayment'), str(d.checkoutId)],
            [t('mail.refundValidUntil'), until],
          ],
        },
        { button: { label: t('mail.refundGiveAddress'), url: linkInLanguage(str(d.url), lang) } },
        { small: t('mail.refundNote', { date: until, network }) },
      ],
      why: t('mail.refundWhy', { sender }),
    };
  },
};
