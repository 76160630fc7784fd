import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { WalletAdmin } from './service.js';
import { Currency, IdParams, NoBody, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { AdminWalletView, NetworkView, WalletSummaryView } from './schemas.js';

/** Wallets: open one for a merchant, list, read, (de)activate; and the networks of an asset. */
const WalletPage = Page(WalletSummaryView);
const Networks = Type.Array(NetworkView);

export async function walletAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<WalletAdmin>): Promise<void> {
  app.post(
    '/merchants/:id/wallets',
    {
      schema: {
        ...WRITE,
        operationId: 'createWallet',
        summary: 'Open a wallet for a merchant (one per asset and chain), balance 0',
        description:
          'The asset must be a supported one with the given chain among its networks. Balances change only by postings.',
        params: IdParams('merchant'),
        body: Type.Object(
          {
            asset: Currency('asset'),
            chain: Type.String({ pattern: '^[A-Za-z0-9]{2,12}$', description: 'chain symbol, e.g. TRON, ETH, BTC' }),
            active: Type.Optional(Type.Boolean({ description: 'default true' })),
          },
          { additionalProperties: false },
        ),
        response: responses(201, AdminWalletView, 'The new wallet.', [...ERRORS.adminWrite, 'UNSUPPORTED_CURRENCY']),
      },
    },
    async (req, reply) => {
      const wallet = await admin.createWallet(
        { merchantId: req.params.id, asset: req.body.asset, chain: req.body.chain, active: req.body.active },
        auditOf(req),
      );
      return send(reply, 201, AdminWalletView, 'wallet created', wallet);
    },
  );

  app.get(
    '/wallets',
    {
      schema: {
        ...READ,
        operationId: 'listAllWallets',
        summary: 'List wallets, oldest first',
        description:
          'Wallets of every merchant or of one, by asset, chain or active flag. Paged: pass nextCursor as cursor for the next page.',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          asset: Type.Optional(Currency('asset')),
          chain: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{2,12}$', description: 'chain symbol' })),
          active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
        }),
        response: responses(200, WalletPage, 'A page of wallets.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const { merchantId, asset, chain, active } = req.query;
      const page = await admin.listWallets({
        ...pageOf(req.query),
        merchantId,
        asset,
        chain,
        active: active === undefined ? undefined : active === 'true',
      });
      return send(reply, 200, WalletPage, 'wallets', page);
    },
  );

  app.get(
    '/wallets/:id',
    {
      schema: {
        ...READ,
        operationId: 'getWallet',
        summary: 'Read a wallet',
        description: 'The wallet as the merchant sees it in its wallet list, with its merchant id.',
        params: IdParams('wallet'),
        response: responses(200, AdminWalletView, 'The wallet.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, AdminWalletView, 'wallet', await admin.getWallet(req.params.id)),
  );

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.post(
      `/wallets/:id/${action}`,
      {
        schema: {
          ...WRITE,
          operationId: `${action}Wallet`,
          summary: active ? 'Activate a wallet' : 'Deactivate a wallet (it stays listed, with active false)',
          description: active
            ? "The wallet shows active true in the merchant's wallet list again."
            : 'The merchant still sees the wallet, with active false; its balance and postings stay. Reversible with activate.',
          params: IdParams('wallet'),
          body: NoBody,
          response: responses(200, AdminWalletView, 'The wallet after the change.', ERRORS.adminWrite),
        },
      },
      async (req, reply) =>
        send(
          reply,
          200,
          AdminWalletView,
          `wallet ${action}d`,
          await admin.setWalletActive(req.params.id, active, auditOf(req)),
        ),
    );
  }

  app.get(
    '/assets/:symbol/networks',
    {
      schema: {
        ...READ,
        operationId: 'listAssetNetworks',
        summary: 'The networks (chains) an asset can be held on',
        description: 'The chains a wallet of this asset can be opened on, and whether deposits are enabled on each.',
        params: Type.Object({ symbol: Currency('asset') }, { additionalProperties: false }),
        response: responses(200, Networks, 'The networks of the asset.', [...ERRORS.adminRead, 'UNSUPPORTED_CURRENCY']),
      },
    },
    async (req, reply) => send(reply, 200, Networks, 'networks', await admin.assetNetworks(req.params.symbol)),
  );
}
