import { Type } from '@sinclair/typebox';
import type { AuditContext } from '../../admin/deps.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { IdParams, WRITE } from '../../admin/schemas.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { ROLES, type Role } from './roles.js';

/** What these routes ask of the feature (its `admin` provision). */
export interface MerchantUserAdmin {
  inviteMerchantUser(
    merchantId: string,
    email: string,
    role: Role,
    audit: AuditContext,
  ): Promise<{ id: string; link: string; expiresAt: string }>;
  merchantUserResetLink(
    merchantId: string,
    email: string,
    audit: AuditContext,
  ): Promise<{ id: string; link: string; expiresAt: string }>;
}

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' });
const LinkView = Type.Object(
  {
    id: Type.String(),
    link: Type.String({ description: 'the one-time link, shown once: pass it on (no mail is sent)' }),
    expiresAt: Type.String(),
  },
  { additionalProperties: false },
);
const WRITE_ERRORS = [...ERRORS.adminWrite, 'TEAM_CONFLICT'] as const;

/** Operators invite a merchant's first owner (and may issue an owner a password-reset link). */
export async function merchantUserAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<MerchantUserAdmin>) {
  app.post(
    '/merchants/:id/user-invitations',
    {
      schema: {
        ...WRITE,
        operationId: 'inviteMerchantUser',
        summary: "Invite a user to a merchant's dashboard (the link is in this answer only)",
        description:
          'A one-time link to /dashboard, valid 7 days, for the email to choose a password and enrol TOTP. Role `owner` unless given. 409 TEAM_CONFLICT when the email is already a user of the merchant or has a pending invitation.',
        params: IdParams('merchant'),
        body: Type.Object(
          { email: Email, role: Type.Optional(Type.Union(ROLES.map((r) => Type.Literal(r)))) },
          { additionalProperties: false },
        ),
        response: responses(201, LinkView, 'The invitation link, shown once.', WRITE_ERRORS),
      },
    },
    async (req, reply) => {
      const link = await admin.inviteMerchantUser(
        req.params.id,
        req.body.email,
        req.body.role ?? 'owner',
        auditOf(req),
      );
      return send(reply, 201, LinkView, 'invited: pass the link on', link);
    },
  );

  app.post(
    '/merchants/:id/user-reset-links',
    {
      schema: {
        ...WRITE,
        operationId: 'merchantUserResetLink',
        summary: "A password-reset link for a merchant's user (the link is in this answer only)",
        description: 'One-time, valid 24 hours. The user keeps the TOTP enrolment; signing in still needs the code.',
        params: IdParams('merchant'),
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: responses(201, LinkView, 'The reset link, shown once.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => {
      const link = await admin.merchantUserResetLink(req.params.id, req.body.email, auditOf(req));
      return send(reply, 201, LinkView, 'pass the link on', link);
    },
  );
}
