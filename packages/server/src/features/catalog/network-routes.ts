import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { Currency, Id, IdParams, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import type { CatalogAdmin } from './service.js';
import { CatalogNetworkView, DepositAddressView, NetworkCreateBody, NetworkUpdateBody } from './schemas.js';

/** Networks (an asset on a chain, with its token contract) and the deposit addresses handed out. */
const Networks = Type.Array(CatalogNetworkView);
const AddressPage = Page(DepositAddressView);
const ChainFilter = Type.String({ pattern: '^[A-Za-z0-9]{2,12}$', description: 'chain symbol' });

export async function networkAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<CatalogAdmin>): Promise<void> {
  app.get(
    '/networks',
    {
      schema: {
        ...READ,
        operationId: 'listNetworks',
        summary: 'List networks by asset and chain',
        description:
          'Every asset-on-chain pair wallets can be opened on, with its token contract, optionally for one asset or chain.',
        querystring: Query({ asset: Type.Optional(Currency('asset')), chain: Type.Optional(ChainFilter) }),
        response: responses(200, Networks, 'The networks.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, Networks, 'networks', await admin.listNetworks(req.query)),
  );

  app.post(
    '/networks',
    {
      schema: {
        ...WRITE,
        operationId: 'createNetwork',
        summary: 'Put an asset on a chain',
        description:
          "Merchants can then hold wallets of the asset on the chain. tokenContract: an EVM 0x address (stored in its EIP-55 spelling) or a TRON T… address; leave it out (null) for the chain's native coin. One network per asset and chain.",
        body: NetworkCreateBody,
        response: responses(201, CatalogNetworkView, 'The new network.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 201, CatalogNetworkView, 'network created', await admin.createNetwork(req.body, auditOf(req))),
  );

  app.get(
    '/networks/:id',
    {
      schema: {
        ...READ,
        operationId: 'getNetwork',
        summary: 'Read a network',
        description: 'One asset-on-chain pair by id.',
        params: IdParams('network'),
        response: responses(200, CatalogNetworkView, 'The network.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, CatalogNetworkView, 'network', await admin.getNetwork(req.params.id)),
  );

  app.patch(
    '/networks/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'updateNetwork',
        summary: 'Change a network (name, token contract, deposits)',
        description: 'Asset and chain stay; tokenContract null makes it the native coin.',
        params: IdParams('network'),
        body: NetworkUpdateBody,
        response: responses(200, CatalogNetworkView, 'The network after the change.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        CatalogNetworkView,
        'network updated',
        await admin.updateNetwork(req.params.id, req.body, auditOf(req)),
      ),
  );

  app.get(
    '/addresses',
    {
      schema: {
        ...READ,
        operationId: 'listDepositAddresses',
        summary: 'List deposit addresses handed out, oldest first',
        description:
          'Each address with its chain, account key and derivation index, and the checkout and payment option it belongs to; optionally for one chain or checkout. Paged: pass nextCursor as cursor for the next page.',
        querystring: Query({
          ...PageQuery,
          chain: Type.Optional(ChainFilter),
          checkoutId: Type.Optional(Id('checkout')),
        }),
        response: responses(200, AddressPage, 'A page of addresses.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const { chain, checkoutId } = req.query;
      return send(
        reply,
        200,
        AddressPage,
        'deposit addresses',
        await admin.listAddresses({ ...pageOf(req.query), chain, checkoutId }),
      );
    },
  );
}
