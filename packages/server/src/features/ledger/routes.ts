import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { postingView } from './service.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { LedgerAdmin } from './service.js';
import {
  DecimalString,
  IdParams,
  IDEMPOTENCY_KEY_PATTERN,
  pageOf,
  PageQuery,
  Query,
  READ,
  WRITE,
} from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { PostingResultView, PostingView } from './schemas.js';

/**
 * The ledger: balances change only by postings (credit, debit, freeze, unfreeze), each atomic
 * and idempotent under its key. A posting that would break 0 <= frozen <= balance is 422
 * INSUFFICIENT_FUNDS and writes nothing.
 */
const PostingPage = Page(PostingView);
const PostingBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('freeze'), Type.Literal('unfreeze')]),
    amount: DecimalString('Amount to post, greater than 0, in the wallet asset'),
    idempotencyKey: Type.Optional(
      Type.String({
        pattern: IDEMPOTENCY_KEY_PATTERN,
        description:
          'the same key on this wallet never posts twice; default: the Idempotency-Key header, else a new key',
      }),
    ),
  },
  { additionalProperties: false },
);

export async function postingAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<LedgerAdmin>): Promise<void> {
  app.post(
    '/wallets/:id/postings',
    {
      schema: {
        ...WRITE,
        operationId: 'createPosting',
        summary: 'Post to a wallet: credit, debit, freeze or unfreeze',
        description:
          '201 with the new posting; 200 with `replayed: true` when the idempotency key was already used for the same posting on this wallet.',
        params: IdParams('wallet'),
        body: PostingBody,
        response: {
          ...responses(201, PostingResultView, 'The posting, with the balances after it.', [
            ...ERRORS.adminWrite,
            'INVALID_AMOUNT',
            'INSUFFICIENT_FUNDS',
          ]),
          ...responses(
            200,
            PostingResultView,
            'The earlier posting with this idempotency key (nothing applied again).',
            [],
          ),
        },
      },
    },
    async (req, reply) => {
      const header = req.headers['idempotency-key'];
      const idempotencyKey = req.body.idempotencyKey ?? (typeof header === 'string' ? header : undefined);
      const { posting, replayed } = await admin.post(
        { walletId: req.params.id, kind: req.body.kind, amount: req.body.amount, idempotencyKey },
        auditOf(req),
      );
      return send(
        reply,
        replayed ? 200 : 201,
        PostingResultView,
        replayed ? 'posting already made with this idempotency key' : 'posted',
        { posting: postingView(posting), replayed },
      );
    },
  );

  app.get(
    '/wallets/:id/postings',
    {
      schema: {
        ...READ,
        operationId: 'listPostings',
        summary: 'The postings of a wallet, oldest first, with the balances after each',
        description:
          'The ledger of one wallet: every posting with the balance and frozen amount after it. Paged: pass nextCursor as cursor for the next page.',
        params: IdParams('wallet'),
        querystring: Query(PageQuery),
        response: responses(200, PostingPage, 'A page of postings.', ERRORS.adminRead),
      },
    },
    async (req, reply) =>
      send(reply, 200, PostingPage, 'postings', await admin.listPostings(req.params.id, pageOf(req.query))),
  );
}
