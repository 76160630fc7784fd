import { ExactNumber } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { Currency } from '../../admin/schemas.js';
import { Nullable, obj, Time } from '../../admin/views.js';
import { SOURCE_KINDS } from './providers/index.js';
import { MAX_REFRESH_SECONDS, MIN_REFRESH_SECONDS } from './sources.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

export const RateView = obj({
  base: Type.String(),
  quote: Type.String(),
  rate: ExactNumber('1 base = rate quote.'),
  source: Type.String({
    description: 'manual (or the text an operator gave), a source id, median(a,b,…) of sources, or cross(A/C,B/C)',
  }),
  updatedAt: Time,
  fetchedAt: Type.String({
    format: 'date-time',
    description: "when the source answered (an operator's rate: when it was set)",
  }),
  maxAgeSeconds: Nullable(
    Type.Integer({
      description: "how long after fetchedAt the rate may be quoted; null: no limit (an operator's pin)",
    }),
  ),
  ageSeconds: Type.Integer({ description: 'seconds since fetchedAt, now' }),
  stale: Type.Boolean({ description: 'older than maxAgeSeconds: checkouts and fee previews do not use it' }),
  pinned: Type.Boolean({ description: 'set by an operator: the feeds leave it alone until it is removed (DELETE)' }),
});

export const RateDeletedView = obj({
  base: Type.String(),
  quote: Type.String(),
  deleted: Type.Literal(true),
  replacedBy: Nullable(RateView),
});

export const RatePairView = obj({
  base: Type.String(),
  quote: Type.String(),
  allowCross: Type.Boolean(),
  maxDeviationPercent: ExactNumber('A source further than this from the median of the sources is dropped.'),
  updatedAt: Time,
});

export const RateSourceView = obj({
  id: Type.String(),
  kind: Type.String(),
  baseUrl: Nullable(
    Type.String({
      description: "masked like webhook URLs; the provider's address when not set; null: no request (demo)",
    }),
  ),
  pairs: Type.Array(Type.String()),
  refreshSeconds: Type.Integer(),
  maxAgeSeconds: Type.Integer(),
  enabled: Type.Boolean(),
  health: obj({
    state: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('unknown'), Type.Literal('disabled')], {
      description: 'up: the last refresh succeeded; down: it failed (see lastError); unknown: not refreshed yet',
    }),
    lastSuccessAt: Nullable(Time),
    lastError: Nullable(Type.String({ description: 'masked: no secret of the URL' })),
    lastErrorAt: Nullable(Time),
    latencyMs: Nullable(Type.Integer({ description: 'how long the last refresh took' })),
    refreshedBy: Nullable(Type.String({ description: 'the instance holding the source now' })),
  }),
  createdAt: Time,
  updatedAt: Time,
});

const closed = { additionalProperties: false };

export const PairParams = Type.Object({ base: Currency('base currency'), quote: Currency('quote currency') }, closed);
export const SourceParams = Type.Object(
  { id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,39}$', description: 'the source id, e.g. coinbase' }) },
  closed,
);

export const SourceBody = Type.Object(
  {
    kind: Type.Union(
      SOURCE_KINDS.map((k) => Type.Literal(k)),
      { description: 'the provider (docs/rates.md); demo only on a sandbox server' },
    ),
    baseUrl: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 2048,
          description:
            "default the provider's own; your proxy's address (checked like webhook URLs; loopback only on a sandbox server). Stored sealed, shown masked.",
        }),
      ),
    ),
    pairs: Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{2,12}/[A-Za-z0-9]{2,12}$' }), {
      minItems: 1,
      maxItems: 100,
      description: 'BASE/QUOTE pairs this source provides, e.g. ["BTC/EUR","ETH/EUR"]',
    }),
    refreshSeconds: Type.Optional(
      Type.Integer({
        minimum: MIN_REFRESH_SECONDS,
        maximum: MAX_REFRESH_SECONDS,
        description: 'default 60 (ecb 3600)',
      }),
    ),
    maxAgeSeconds: Type.Optional(
      Type.Integer({
        minimum: MIN_REFRESH_SECONDS,
        maximum: 2_592_000,
        description: 'how long its rates may be quoted; default 600 (ecb 4 days), at least refreshSeconds',
      }),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  closed,
);

export const PairBody = Type.Object(
  {
    allowCross: Type.Optional(
      Type.Boolean({ description: 'derive the pair through a third currency when no source provides it' }),
    ),
    maxDeviationPercent: Type.Optional(
      Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', maxLength: 24, description: 'default 5' }),
    ),
  },
  closed,
);
