import { defaultConfirmationsText, familyNamesText } from '../../chain-families/index.js';
import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { READ, WRITE } from '../../admin/schemas.js';
import type { CatalogAdmin } from './service.js';
import {
  AssetCreateBody,
  AssetParams,
  AssetUpdateBody,
  AssetView,
  ChainCreateBody,
  ChainParams,
  ChainUpdateBody,
  ChainView,
  XpubBody,
  XpubView,
} from './schemas.js';
import { networkAdminRoutes } from './network-routes.js';

/**
 * The catalog an operator manages: assets (what is paid and held), chains (where, with the
 * confirmations a payment needs and the extended public key deposit addresses come from) and
 * networks (an asset on a chain). Reads show the key only in part; its own route shows it whole.
 */
const Assets = Type.Array(AssetView);
const Chains = Type.Array(ChainView);

export async function catalogAdminRoutes(app: TypedApp, ctx: AdminRouteContext<CatalogAdmin>): Promise<void> {
  const { admin } = ctx;
  app.get(
    '/assets',
    {
      schema: {
        ...READ,
        operationId: 'listAssets',
        summary: 'List assets by symbol',
        description: 'Every asset of the catalog, active or not, with its precision.',
        response: responses(200, Assets, 'Every asset.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Assets, 'assets', await admin.listAssets()),
  );

  app.post(
    '/assets',
    {
      schema: {
        ...WRITE,
        operationId: 'createAsset',
        summary: 'Add an asset',
        description:
          'A new asset (crypto or fiat) with its display name, icon file name and precision (decimal places, 0 to 18). Wallets can hold it once it has a network (POST /admin/v1/networks). A symbol that exists already is refused.',
        body: AssetCreateBody,
        response: responses(201, AssetView, 'The new asset.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => send(reply, 201, AssetView, 'asset created', await admin.createAsset(req.body, auditOf(req))),
  );

  app.get(
    '/assets/:symbol',
    {
      schema: {
        ...READ,
        operationId: 'getAsset',
        summary: 'Read an asset',
        description: 'One asset by symbol (any case).',
        params: AssetParams,
        response: responses(200, AssetView, 'The asset.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, AssetView, 'asset', await admin.getAsset(req.params.symbol)),
  );

  app.patch(
    '/assets/:symbol',
    {
      schema: {
        ...WRITE,
        operationId: 'updateAsset',
        summary: 'Change an asset (name, image, precision, crypto flag, active)',
        description:
          'The symbol stays. Inactive: no new wallets in it; existing wallets and balances stay. Precision can be lowered only while no wallet, fee tier or checkout uses the asset.',
        params: AssetParams,
        body: AssetUpdateBody,
        response: responses(200, AssetView, 'The asset after the change.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, AssetView, 'asset updated', await admin.updateAsset(req.params.symbol, req.body, auditOf(req))),
  );

  app.get(
    '/chains',
    {
      schema: {
        ...READ,
        operationId: 'listChains',
        summary: 'List chains by symbol',
        description:
          'Every chain with its family, network type, confirmations required, and whether an extended public key is set (shown in part, with its fingerprint and next index).',
        response: responses(200, Chains, 'Every chain.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Chains, 'chains', await admin.listChains()),
  );

  app.post(
    '/chains',
    {
      schema: {
        ...WRITE,
        operationId: 'createChain',
        summary: 'Add a chain',
        description: `A new chain of family ${familyNamesText()} (fixed after creation) on mainnet, testnet or regtest. confirmationsRequired defaults by family: ${defaultConfirmationsText()}. Checkouts can use it once it has an extended public key (PUT /admin/v1/chains/{symbol}/xpub).`,
        body: ChainCreateBody,
        response: responses(201, ChainView, 'The new chain (no key yet).', ERRORS.adminWrite),
      },
    },
    async (req, reply) => send(reply, 201, ChainView, 'chain created', await admin.createChain(req.body, auditOf(req))),
  );

  app.get(
    '/chains/:symbol',
    {
      schema: {
        ...READ,
        operationId: 'getChain',
        summary: 'Read a chain',
        description: 'One chain by symbol (any case), with its key in part.',
        params: ChainParams,
        response: responses(200, ChainView, 'The chain.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, ChainView, 'chain', await admin.getChain(req.params.symbol)),
  );

  app.patch(
    '/chains/:symbol',
    {
      schema: {
        ...WRITE,
        operationId: 'updateChain',
        summary: 'Change a chain (name, network type, confirmations, active)',
        description:
          'The family is fixed; the network type can change only while the chain has no key and no addresses. A new confirmation count applies to checkouts created afterwards.',
        params: ChainParams,
        body: ChainUpdateBody,
        response: responses(200, ChainView, 'The chain after the change.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, ChainView, 'chain updated', await admin.updateChain(req.params.symbol, req.body, auditOf(req))),
  );

  app.put(
    '/chains/:symbol/xpub',
    {
      schema: {
        ...WRITE,
        operationId: 'setChainXpub',
        summary: "Set the chain's account-level extended public key",
        description:
          "Deposit addresses of the chain are derived from it watch-only: the i-th is <key>/0/i. BTC takes the BIP-84 account key (m/84'/0'/0' on mainnet, m/84'/1'/0' on testnet and regtest) as xpub/zpub or tpub/vpub; EVM m/44'/60'/0' and TRON m/44'/195'/0' as xpub. A private key, another network's key or a key at another depth is refused with 400. The same key given to two chains (EVM) is one key with one address counter; a new key starts its own counter, and addresses already handed out stay.",
        params: ChainParams,
        body: XpubBody,
        response: responses(200, XpubView, 'The key as stored, in full.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        XpubView,
        'extended public key set',
        await admin.setChainXpub(req.params.symbol, req.body.xpub, auditOf(req)),
      ),
  );

  app.get(
    '/chains/:symbol/xpub',
    {
      schema: {
        ...READ,
        operationId: 'getChainXpub',
        summary: "Read the chain's extended public key in full",
        description:
          'The key, its fingerprint, the next derivation index and every chain sharing it. 404 when the chain has none yet.',
        params: ChainParams,
        response: responses(200, XpubView, 'The key.', ERRORS.adminRead),
      },
    },
    async (req, reply) =>
      send(reply, 200, XpubView, 'extended public key', await admin.getChainXpub(req.params.symbol)),
  );

  await networkAdminRoutes(app, ctx);
}
