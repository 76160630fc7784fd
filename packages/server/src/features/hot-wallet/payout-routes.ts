import { Type } from '@sinclair/typebox';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { IdParams, NoBody, READ, WRITE } from '../../admin/schemas.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import type { PayoutChainOps } from './payout-ops.js';

const closed = { additionalProperties: false };
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const Literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const Transaction = Type.Object(
  {
    txHash: Type.String(),
    kind: Literals(['payment', 'cancel'], 'payment: pays the payout; cancel: zero value to the hot wallet itself'),
    status: Literals(
      ['signed', 'broadcast', 'mined', 'confirmed', 'replaced', 'failed'],
      "the sender's record: replaced by a fee bump or a cancel at the same nonce; failed: reverted",
    ),
    nonce: Type.Integer(),
    maxFeePerGas: Type.String({ description: 'wei, decimal text' }),
    maxPriorityFeePerGas: Type.String({ description: 'wei, decimal text' }),
    blockNumber: Nullable(Type.Integer()),
    confirmations: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    broadcastAt: Nullable(Type.String({ format: 'date-time' })),
  },
  closed,
);

export const PayoutChainSchema = Type.Object(
  {
    payoutId: Type.String(),
    payoutStatus: Type.String(),
    chain: Type.String(),
    wallet: Type.String({ description: "the hot wallet's address" }),
    nonce: Nullable(Type.Integer({ description: 'null: the hot wallet signed nothing for the payout' })),
    txHash: Nullable(
      Type.String({ description: 'the transaction that decides the payout: the one mined, else the latest' }),
    ),
    state: Type.Union([
      Literals(
        ['signed', 'in_flight', 'forgotten', 'mined', 'confirmed', 'reverted'],
        'forgotten: the node has no trace of it (not pooled, not mined, nonce unused) and refused it again',
      ),
      Type.Null(),
    ]),
    forgotten: Type.Union([
      Type.Object(
        {
          since: Type.String({ format: 'date-time' }),
          nodeAnswer: Type.String({ description: "the node's answer when the bytes were sent again" }),
        },
        closed,
      ),
      Type.Null(),
    ]),
    cancel: Type.Union([
      Type.Object(
        {
          status: Literals(
            ['requested', 'sent', 'canceled', 'lost'],
            "requested: waits for the sender; sent: the replacement is signed; canceled: it was mined (payout failed); lost: the payout's own transaction was mined (payout completed)",
          ),
          requestedBy: Type.String(),
          requestedAt: Type.String({ format: 'date-time' }),
          resolvedAt: Nullable(Type.String({ format: 'date-time' })),
          txHash: Nullable(Type.String({ description: 'the latest replacement signed' })),
        },
        closed,
      ),
      Type.Null(),
    ]),
    actions: Type.Array(Literals(['rebroadcast', 'cancel_by_replacement'], 'what an operator may do now')),
    advice: Type.String({ description: 'what the state means and what to do, in words' }),
    transactions: Type.Array(Transaction, { description: 'every transaction signed for the payout, oldest first' }),
  },
  closed,
);

const WAY_OUT = 'docs/payouts.md, "When a hot-wallet transaction is stuck"';

/** The operators' way out of a hot-wallet payout stuck in flight (payout-ops.ts). */
export async function payoutChainRoutes(app: TypedApp, { admin }: AdminRouteContext<PayoutChainOps>): Promise<void> {
  app.get(
    '/payouts/:id/hot-wallet',
    {
      schema: {
        ...READ,
        operationId: 'getPayoutHotWallet',
        summary: "A payout's hot-wallet transactions: state, whether the node forgot them, what to do",
        description: `Every transaction the hot wallet signed for the payout (fee bumps, a cancel), the state of the one that decides it (forgotten: the node has no trace of it and refused it again), an operator's cancel by replacement and the actions possible now. A payout the hot wallet signed nothing for answers state null and no transactions; 404 for no payout. See ${WAY_OUT}.`,
        params: IdParams('payout'),
        response: responses(200, PayoutChainSchema, "The payout's transactions.", ERRORS.adminRead),
      },
    },
    async (req, reply) =>
      send(reply, 200, PayoutChainSchema, 'payout transactions', await admin.payoutChain(req.params.id)),
  );

  app.post(
    '/payouts/:id/cancel-by-replacement',
    {
      schema: {
        ...WRITE,
        operationId: 'cancelPayoutByReplacement',
        summary: 'Cancel a sent hot-wallet payout by replacing its transaction (not mined) with a zero-value one',
        description: `The chain's sender signs a zero-value transfer to the hot wallet itself at the payout's nonce, with a fee above the fee-bump minimum, stores it, then broadcasts it. The payout fails (its total unfrozen) only once that is mined to the chain's depth; if its own transaction is mined instead, it completes and the cancel ends lost. Asking again answers the same request. 409 PAYOUT_STATE_CONFLICT when the payout is not sent or its transaction is already mined. Audited. See ${WAY_OUT}.`,
        params: IdParams('payout'),
        body: NoBody,
        response: responses(200, PayoutChainSchema, 'The cancel recorded (state and cancel.status).', [
          ...ERRORS.adminWrite,
          'PAYOUT_STATE_CONFLICT',
        ]),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        PayoutChainSchema,
        'cancel by replacement requested',
        await admin.cancelByReplacement(req.params.id, auditOf(req)),
      ),
  );

  app.post(
    '/payouts/:id/rebroadcast',
    {
      schema: {
        ...WRITE,
        operationId: 'rebroadcastPayout',
        summary: "Send a hot-wallet payout's stored transaction to the node again, now",
        description: `The same signed bytes (nothing is signed). Accepted: no longer forgotten. Refused: stays forgotten with the node's answer (forgotten.nodeAnswer). 503 UNAVAILABLE when the node does not answer; 409 PAYOUT_STATE_CONFLICT when the transaction is mined or reverted. Audited. See ${WAY_OUT}.`,
        params: IdParams('payout'),
        body: NoBody,
        response: responses(200, PayoutChainSchema, 'The transaction after the attempt.', [
          ...ERRORS.adminWrite,
          'PAYOUT_STATE_CONFLICT',
        ]),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        PayoutChainSchema,
        'transaction sent again',
        await admin.rebroadcast(req.params.id, auditOf(req)),
      ),
  );
}
