import { MerchantSettings, SETTINGS_PATHS, UpdateSettingsBody } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { IdempotencyHeaders } from '../../admin/schemas.js';
import { principalOf } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, send, WRITE_ERRORS } from '../../http/merchant-scope.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import { successBody } from '../../http/success-body.js';
import { TEAM_ADMINS } from '../merchant-users/roles.js';
import type { SettingsActor, SettingsService } from './settings.js';

export interface SettingsRouteContext extends RouteContext {
  selfService: { settings: SettingsService };
  idempotency?: AdminIdempotency | undefined;
}

const Query = Type.Object(MerchantQuery, { additionalProperties: false });
const one = (description: string) => ok(Type.Ref(MerchantSettings), description);

/**
 * Who changes the settings through the API: the key (the audit log names it), or a dashboard
 * session, which may do here only what its settings page lets its role do (owner and admin).
 */
function actorOf(req: FastifyRequest, merchantId: string): SettingsActor {
  const p = principalOf(req);
  if (p.via === 'key') return { merchantId, keyId: p.key.id, ip: req.ip, requestId: req.id };
  if (!TEAM_ADMINS.includes(p.role))
    throw new HostpayError('ROLE_FORBIDDEN', `changing settings needs the owner or admin role (you are ${p.role})`);
  return { merchantId, userId: p.userId, email: p.email, ip: req.ip, requestId: req.id };
}

/**
 * GET and PATCH /api/v1/cp/settings: the merchant's settings through the API, the same operation
 * as the dashboard's settings page (settings.ts), scopes checkout:read and checkout:write (the
 * settings are the checkout pages' look and defaults).
 */
export async function settingsRoutes(app: TypedApp, ctx: SettingsRouteContext): Promise<void> {
  const settings = ctx.selfService.settings;
  // A data: logo is up to 60,000 characters.
  const merchantOf = merchantScope(app, ctx, 62 * 1024, '{"brandColor": "#0b57d0"}');

  app.get(
    SETTINGS_PATHS.settings,
    {
      schema: {
        tags: ['merchant'],
        operationId: 'getSettings',
        summary: "The merchant's settings: page name, logo, colours, default language, seller details",
        description:
          'What the public pages, invoices, receipts and payer mails show, and the URLs a checkout gets when its request names none (docs/api.md, "Settings").',
        security: SECURITY.merchant,
        querystring: Query,
        response: { 200: one('The settings.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'checkout:read' },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await settings.get(await merchantOf(req, req.query.merchantId)))),
  );

  app.patch(
    SETTINGS_PATHS.settings,
    {
      schema: {
        tags: ['merchant'],
        operationId: 'updateSettings',
        summary: "Change the merchant's settings",
        description:
          'Only the fields given change; null (or an empty string) clears one. Colours are #rgb or #rrggbb and must reach WCAG AA 4.5:1 where the pages use them (docs/payment-page.md, "Branding"): a refusal is 400 INVALID_BODY whose message gives the measured ratio and the nearest shade that passes. `language` is one of the 11 payer languages. Audited with the key as the actor; a dashboard session needs the owner or admin role.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: UpdateSettingsBody,
        response: {
          200: one('The settings as changed.'),
          ...errorResponses([...WRITE_ERRORS, 'INVALID_URL', 'INVALID_EMAIL', 'ROLE_FORBIDDEN']),
        },
      },
      config: { scope: 'checkout:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 200, successBody(await settings.update(actorOf(req, merchantId), req.body), 'settings saved'));
    },
  );
}
