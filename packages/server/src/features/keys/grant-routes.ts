import { Type } from '@sinclair/typebox';
import { HostpayError } from '../../errors.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { KeyAdmin } from './service.js';
import { Id, IdParams, READ, WRITE } from '../../admin/schemas.js';
import { GrantView } from './schemas.js';

/**
 * Platform grants: a key may act for the sub-merchants granted to it (`merchantId` on the
 * merchant routes). Listing, adding and removing them per key.
 */
const Grants = Type.Array(GrantView);
const Removed = Type.Object(
  { keyId: Type.String(), merchantId: Type.String(), deleted: Type.Literal(true) },
  { additionalProperties: false },
);

export async function grantAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<KeyAdmin>): Promise<void> {
  const grantsOf = async (keyId: string) => (await admin.listGrants(keyId)).map((g) => ({ keyId, ...g }));

  app.get(
    '/keys/:id/grants',
    {
      schema: {
        ...READ,
        operationId: 'listKeyGrants',
        summary: 'List the sub-merchants an API key may act for',
        description:
          'The merchants a platform key may name in `merchantId` on the merchant endpoints, besides its own.',
        params: IdParams('API key'),
        response: responses(200, Grants, 'The grants of the key.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      await admin.getApiKey(req.params.id); // 404 for an unknown key, not an empty list
      return send(reply, 200, Grants, 'grants', await grantsOf(req.params.id));
    },
  );

  app.post(
    '/keys/:id/grants',
    {
      schema: {
        ...WRITE,
        operationId: 'addKeyGrant',
        summary: 'Let an API key act for another merchant (platform key); granting twice is harmless',
        description: 'From the next request the key may pass `merchantId` of this merchant on the merchant endpoints.',
        params: IdParams('API key'),
        body: Type.Object({ merchantId: Id('sub-merchant') }, { additionalProperties: false }),
        response: responses(201, GrantView, 'The grant.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => {
      const keyId = req.params.id;
      await admin.grantMerchant(keyId, req.body.merchantId, auditOf(req));
      const grant = (await grantsOf(keyId)).find((g) => g.merchantId === req.body.merchantId);
      if (grant === undefined)
        throw new HostpayError('NOT_FOUND', `API key ${keyId} has no grant for merchant ${req.body.merchantId}`);
      return send(reply, 201, GrantView, 'grant added', grant);
    },
  );

  app.delete(
    '/keys/:id/grants/:merchantId',
    {
      schema: {
        ...WRITE,
        operationId: 'removeKeyGrant',
        summary: 'Withdraw a grant: the key may no longer act for that merchant, from the next request',
        description:
          'Requests naming this merchant with the key are refused with 403 MERCHANT_FORBIDDEN from the next request.',
        params: Type.Object({ id: Id('API key'), merchantId: Id('sub-merchant') }, { additionalProperties: false }),
        response: responses(200, Removed, 'The grant that was removed.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => {
      await admin.revokeGrant(req.params.id, req.params.merchantId, auditOf(req));
      return send(reply, 200, Removed, 'grant removed', {
        keyId: req.params.id,
        merchantId: req.params.merchantId,
        deleted: true,
      });
    },
  );
}
