import { SCOPES } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { KeyAdmin } from './service.js';
import { IdParams, NoBody, OptionalTime, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { CreatedKeyView, KeyView, RotationView } from './schemas.js';

/** API keys: create (secret shown once), list, read, change settings, revoke, rotate. */
const KeyPage = Page(KeyView);
const Settings = {
  scopes: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      minItems: 1,
      maxItems: 16,
      description: `any of ${SCOPES.join(', ')} (default all but payouts:write)`,
    }),
  ),
  rateLimitPerMinute: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()], {
      description: 'requests a minute; null: the server default',
    }),
  ),
  expiresAt: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
      description: 'ISO 8601 time after which the key is refused (403 KEY_EXPIRED); null: never',
    }),
  ),
  requireSignatureV2: Type.Optional(
    Type.Boolean({ description: 'true: refuse version-1 signatures for this key (they do not cover method and path)' }),
  ),
  ipAllowList: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 }), Type.Null()], {
      description: 'IPv4/IPv6 addresses or CIDR blocks the key may be used from; null: any address',
    }),
  ),
  label: Type.Optional(
    Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'a note for operators' }),
  ),
};
const KeyParams = IdParams('API key');
const KEY_WRITE_ERRORS = [...ERRORS.adminWrite, 'KEY_REVOKED'] as const;

export async function keyAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<KeyAdmin>): Promise<void> {
  app.post(
    '/merchants/:id/keys',
    {
      schema: {
        ...WRITE,
        operationId: 'createApiKey',
        summary: 'Create an API key for a merchant (the secret is in this answer only)',
        description:
          'The key id (the api-key header) and its secret, which the server keeps only encrypted and never shows again. Optional settings: scopes, expiry, IP allow-list, rate limit, label.',
        params: IdParams('merchant'),
        body: Type.Object(Settings, { additionalProperties: false }),
        response: responses(201, CreatedKeyView, 'The new key and, once, its secret.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        201,
        CreatedKeyView,
        'API key created: store the secret now, it is not shown again',
        await admin.createApiKey(req.params.id, req.body, auditOf(req)),
      ),
  );

  app.get(
    '/keys',
    {
      schema: {
        ...READ,
        operationId: 'listApiKeys',
        summary: 'List API keys (never their secrets)',
        description: 'Keys of every merchant or of one, by status. Paged: pass nextCursor as cursor for the next page.',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('revoked')])),
        }),
        response: responses(200, KeyPage, 'A page of keys.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const page = await admin.listApiKeys({
        ...pageOf(req.query),
        merchantId: req.query.merchantId,
        status: req.query.status,
      });
      return send(reply, 200, KeyPage, 'API keys', page);
    },
  );

  app.get(
    '/keys/:id',
    {
      schema: {
        ...READ,
        operationId: 'getApiKey',
        summary: 'Read an API key (never its secret)',
        description:
          'Settings, status and times of one key, including when it was last used and which key replaced it.',
        params: KeyParams,
        response: responses(200, KeyView, 'The key.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, KeyView, 'API key', await admin.getApiKey(req.params.id)),
  );

  app.patch(
    '/keys/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'updateApiKey',
        summary: 'Change the settings of an API key; effective from the next request',
        description:
          'Only the given settings change; null clears a limit. Tokens already issued follow the new settings from the next request.',
        params: KeyParams,
        body: Type.Object(Settings, {
          additionalProperties: false,
          minProperties: 1,
          description:
            'the settings to change: scopes, expiresAt, ipAllowList, rateLimitPerMinute, label, requireSignatureV2',
        }),
        response: responses(200, KeyView, 'The key after the change.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, KeyView, 'API key updated', await admin.updateApiKey(req.params.id, req.body, auditOf(req))),
  );

  app.post(
    '/keys/:id/revoke',
    {
      schema: {
        ...WRITE,
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key: it and its tokens are refused from the next request (403 KEY_REVOKED)',
        description:
          'Permanent: a revoked key cannot be used again. Rotate instead to replace a key without an outage.',
        params: KeyParams,
        body: NoBody,
        response: responses(200, KeyView, 'The revoked key (revoking twice is harmless).', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, KeyView, 'API key revoked', await admin.revokeApiKey(req.params.id, auditOf(req))),
  );

  app.post(
    '/keys/:id/rotate',
    {
      schema: {
        ...WRITE,
        operationId: 'rotateApiKey',
        summary: 'Rotate an API key: a new key with the same settings and grants; the old one works until overlapUntil',
        description:
          'Both keys work during the overlap, so clients can switch without an outage; the new secret is in this answer only.',
        params: KeyParams,
        body: Type.Object(
          { overlapUntil: OptionalTime('when the old key stops working (default 24 h from now, at most 30 days)') },
          { additionalProperties: false },
        ),
        response: responses(201, RotationView, 'The old key (now expiring) and the new key with, once, its secret.', [
          ...KEY_WRITE_ERRORS,
          'KEY_ALREADY_ROTATED',
        ]),
      },
    },
    async (req, reply) =>
      send(
        reply,
        201,
        RotationView,
        'API key rotated: store the new secret now, it is not shown again',
        await admin.rotateApiKey(req.params.id, req.body.overlapUntil, auditOf(req)),
      ),
  );
}
