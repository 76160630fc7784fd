import { Type } from '@sinclair/typebox';
import { type AdminRouteContext, responses, send } from '../../admin/reply.js';
import { Id, IdParams, PageQuery, pageOf, Query, READ } from '../../admin/schemas.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import type { MailAdmin } from './admin.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const STATUSES = ['pending', 'sent', 'kept', 'failed', 'bounced', 'limited', 'suppressed'] as const;
const Status = Type.Union(
  STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      'pending (waiting to be sent or retried), sent, kept (no transport, or to a payer on a sandbox: shown here, not sent), failed (a permanent refusal or too many temporary ones), bounced (the server refused the recipient: the address is not mailed again until it changes), limited (over a rate limit), suppressed (to an address that bounced)',
  },
);
const MailFields = {
  id: Type.String(),
  merchantId: Nullable(Type.String()),
  kind: Type.String({
    description: 'invitation, password-reset, security, notification, or a kind another feature adds',
  }),
  to: Type.String(),
  toRole: Type.String({ description: 'payer, user or operator' }),
  status: Status,
  subject: Nullable(Type.String({ description: 'as sent or kept; null before' })),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  sentAt: Nullable(Type.String({ description: 'when it was sent or kept' })),
  nextAttemptAt: Nullable(Type.String()),
  bodyDeleted: Type.Boolean({ description: "true once a link token's mail body was deleted (7 days after sending)" }),
};
const MailItem = Type.Object(MailFields, { additionalProperties: false });
const MailDetail = Type.Object(
  { ...MailFields, text: Nullable(Type.String()), html: Nullable(Type.String()) },
  { additionalProperties: false },
);
const MailPage = Type.Object(
  { items: Type.Array(MailItem), nextCursor: Nullable(Type.String()) },
  { additionalProperties: false },
);

/** GET /admin/v1/mail and /admin/v1/mail/:id: the outbox, every mail sent, kept or owed. */
export async function mailAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<MailAdmin>): Promise<void> {
  app.get(
    '/mail',
    {
      schema: {
        ...READ,
        operationId: 'listMail',
        summary: 'Every mail sent, kept or owed, newest first',
        description:
          'The mail outbox (docs/mail.md): without HOSTPAY_SMTP_URL every mail is kept and shown here (and in the console) instead of sent. Filters: merchantId, status, to.',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Id('merchant')),
          status: Type.Optional(Status),
          to: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
        }),
        response: responses(200, MailPage, 'A page of mails.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const { merchantId, status, to } = req.query;
      return send(reply, 200, MailPage, 'mail', await admin.listMail({ merchantId, status, to }, pageOf(req.query)));
    },
  );
  app.get(
    '/mail/:id',
    {
      schema: {
        ...READ,
        operationId: 'getMail',
        summary: 'One mail with its text and HTML',
        description: "The mail as it is (or would be) sent; text and html null once a link token's body was deleted.",
        params: IdParams('mail'),
        response: responses(200, MailDetail, 'The mail.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, MailDetail, 'mail', await admin.getMail(req.params.id)),
  );
}
