import { Type } from '@sinclair/typebox';
import type { Metric } from 'prom-client';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { READ, WRITE } from '../../admin/schemas.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { ChainParams } from '../catalog/schemas.js';
import type { HotWalletAdmin } from './service.js';

const closed = { additionalProperties: false };
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);

const SetAnswer = Type.Object(
  {
    chain: Type.String(),
    address: Type.String({
      description: "the hot wallet's address (lower-case 0x): fund it with the coin for gas and the assets it pays",
    }),
  },
  closed,
);
const HotWalletView = Type.Object(
  {
    chain: Type.String(),
    address: Type.String(),
    nextNonce: Nullable(
      Type.Integer({ description: 'the nonce the next new transaction takes; null before the first' }),
    ),
    openTransactions: Type.Integer({
      description: 'transactions signed and not yet confirmed (broadcast, mined, or a fee bump waiting)',
    }),
    forgottenTransactions: Type.Integer({
      description:
        'transactions in flight the node has no trace of and refused again: each needs an operator (GET /payouts/{id}/hot-wallet)',
    }),
    lastError: Nullable(Type.String({ description: "the sender's last failed round (RPC URLs masked)" })),
    lastErrorAt: Nullable(Type.String()),
    senderHolder: Nullable(Type.String({ description: 'the instance that sends on this chain now (its lease)' })),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  closed,
);
const SetBody = Type.Object(
  {
    privateKey: Type.Optional(
      Type.String({
        minLength: 64,
        maxLength: 66,
        description:
          'the 32-byte private key in hex (0x optional). Left out: hostpay generates one. Stored sealed under the master key; never shown, logged or audited.',
      }),
    ),
  },
  closed,
);

/** The hot wallet that sends approved payouts on an EVM chain by itself (docs/payouts.md, "The evm-hot-wallet sender"). */
export async function hotWalletAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<HotWalletAdmin>): Promise<void> {
  app.put(
    '/chains/:symbol/hot-wallet',
    {
      schema: {
        ...WRITE,
        operationId: 'setHotWallet',
        summary: "Set (or generate) an EVM chain's hot wallet key",
        description:
          'Sets the key the evm-hot-wallet sender signs payouts with on this chain, or generates one when privateKey is left out. Answers the address only: the key is sealed under the master key and never shown again. The same key again keeps the nonces; another key is refused while transactions of the old one are in flight. Audited with the address.',
        params: ChainParams,
        body: SetBody,
        response: responses(200, SetAnswer, 'The chain and the address of its hot wallet.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        SetAnswer,
        'hot wallet set',
        await admin.setHotWallet(req.params.symbol, req.body ?? {}, auditOf(req)),
      ),
  );

  app.get(
    '/chains/:symbol/hot-wallet',
    {
      schema: {
        ...READ,
        operationId: 'getHotWallet',
        summary: "An EVM chain's hot wallet: address and sender status",
        description: '404 when the chain has no hot wallet. Never the key; no balance (ask your node or an explorer).',
        params: ChainParams,
        response: responses(200, HotWalletView, 'The hot wallet.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, HotWalletView, 'hot wallet', await admin.getHotWallet(req.params.symbol)),
  );

  app.delete(
    '/chains/:symbol/hot-wallet',
    {
      schema: {
        ...WRITE,
        operationId: 'deleteHotWallet',
        summary: "Remove an EVM chain's hot wallet",
        description:
          'The sealed key goes; the chain sends no more payouts by itself. Refused while transactions are in flight. Audited with the address.',
        params: ChainParams,
        response: responses(200, SetAnswer, 'The hot wallet as it was.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, SetAnswer, 'hot wallet removed', await admin.deleteHotWallet(req.params.symbol, auditOf(req))),
  );
}

/** No merchant route: the sender's metrics join /metrics (the route context holds the registry). */
export async function hotWalletMetricsRoutes(_app: TypedApp, ctx: FeatureRouteContext<'hotWallet'>): Promise<void> {
  for (const metric of ctx.hotWallet.metrics.collectors() as (Metric & { name: string })[]) {
    if (ctx.metrics.registry.getSingleMetric(metric.name) === undefined) ctx.metrics.registry.registerMetric(metric);
  }
}
