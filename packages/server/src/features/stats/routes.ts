import { DECIMAL_FORMAT } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { ISO_TIME_HELP, isoTime } from '../../http/iso-time.js';
import { responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { Id, Query, READ } from '../../admin/schemas.js';
import { HostpayError } from '../../errors.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { MAX_RANGE_DAYS, type StatsAdmin } from './service.js';

const Exact = (description: string) =>
  Type.Number({
    format: DECIMAL_FORMAT,
    description: `${description}; an exact decimal written as a JSON number literal (read it with an exact parser)`,
  });
const Rate = (description: string) =>
  Type.Union([Exact(`${description}, 0 to 1, rounded to 4 places`), Type.Null()], {
    description: `${description}; null when there is nothing to divide by`,
  });
const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false });

export const Stats = obj({
  from: Type.String(),
  to: Type.String(),
  merchantId: Type.Union([Type.String(), Type.Null()]),
  generatedAt: Type.String(),
  settledVolume: Type.Array(
    obj({
      day: Type.String({ description: 'UTC day, YYYY-MM-DD, of the settlement' }),
      asset: Type.String(),
      amount: Exact('credited to merchants that day in this asset'),
      count: Type.Integer(),
    }),
    { description: 'per UTC day and asset, days without settlements left out' },
  ),
  settledTotals: Type.Array(
    obj({ asset: Type.String(), amount: Exact('credited in the range'), count: Type.Integer() }),
  ),
  timeToSettle: obj({
    settled: Type.Integer({ description: 'checkouts settled in the range' }),
    medianSeconds: Type.Union([Type.Integer(), Type.Null()], {
      description: 'median seconds from creation to settlement of those checkouts',
    }),
  }),
  funnel: obj({
    created: Type.Integer({ description: 'checkouts created in the range' }),
    paid: Type.Integer({
      description: 'of those, how many reached the payment threshold (processing) or were settled',
    }),
    settled: Type.Integer(),
    expired: Type.Integer(),
    needsReview: Type.Integer(),
    conversionRate: Rate('settled / created'),
    paidRate: Rate('paid / created'),
  }),
  byStatus: Type.Record(Type.String(), Type.Integer(), {
    description: 'checkouts created in the range by their status now',
  }),
  balances: Type.Array(
    obj({
      asset: Type.String(),
      chain: Type.String(),
      amount: Exact('sum of wallet balances now'),
      frozen: Exact('sum of frozen parts now'),
      wallets: Type.Integer(),
    }),
  ),
  webhooks: obj({
    attempts: Type.Integer({ description: 'delivery attempts in the range' }),
    succeeded: Type.Integer(),
    successRate: Rate('succeeded / attempts'),
    queued: Type.Integer({ description: 'deliveries waiting now (due or waiting for a retry)' }),
    oldestQueuedAt: Type.Union([Type.String(), Type.Null()]),
    endpointsFailingOrDisabled: Type.Integer(),
  }),
});

const Time = (what: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: `${what}: ISO 8601 time with an offset` }));

/** GET /admin/v1/stats: the console overview's figures, every one also readable here. */
export async function statsAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<StatsAdmin>): Promise<void> {
  app.get(
    '/stats',
    {
      schema: {
        ...READ,
        operationId: 'getStats',
        summary: 'Business figures for a time range',
        description: `Settled volume per UTC day and asset, the checkout funnel (created → paid → settled, expired, needs review) with conversion, median time from creation to settlement, balances and frozen parts per asset and chain (now), and webhook health. Range [from, to): default the last 30 days; at most ${MAX_RANGE_DAYS} days. Filter by merchantId.`,
        querystring: Query({
          from: Time('start, inclusive'),
          to: Time('end, exclusive'),
          merchantId: Type.Optional(Id('merchant')),
        }),
        response: responses(200, Stats, 'The figures.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const defaults = admin.defaultStatsRange();
      const read = (name: 'from' | 'to', fallback: string) => {
        const text = req.query[name];
        if (text === undefined) return fallback;
        const at = isoTime(text);
        if (at === null)
          throw new HostpayError('INVALID_QUERY', `query parameter \`${name}\` must be ${ISO_TIME_HELP}`, {
            parameter: name,
          });
        return at;
      };
      const to = read('to', defaults.to);
      const from = read(
        'from',
        req.query.to !== undefined && req.query.from === undefined
          ? new Date(Date.parse(to) - (Date.parse(defaults.to) - Date.parse(defaults.from))).toISOString()
          : defaults.from,
      );
      const span = Date.parse(to) - Date.parse(from);
      if (span <= 0) throw new HostpayError('INVALID_QUERY', '`from` must be before `to`', { parameter: 'from' });
      if (span > MAX_RANGE_DAYS * 86_400_000)
        throw new HostpayError('INVALID_QUERY', `the range may span at most ${MAX_RANGE_DAYS} days: narrow from/to`, {
          parameter: 'from',
        });
      return send(reply, 200, Stats, 'stats', await admin.stats({ from, to, merchantId: req.query.merchantId }));
    },
  );
}
