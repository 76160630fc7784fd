import { ExactNumber, FeePreview, Network, Wallet } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * What admin answers carry. Each answer is trimmed to its schema before it is written
 * (reply.ts), so a field the schema does not name (a secret on a read, say) cannot leak.
 */
const obj = <P extends Record<string, TSchema>>(props: P, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description === undefined ? {} : { description }) });
const Time = Type.String({ format: 'date-time' });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Page = <T extends TSchema>(item: T) =>
  obj({ items: Type.Array(item), nextCursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })) });

export const MerchantView = obj({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  createdAt: Time,
  updatedAt: Time,
});

export const KeyView = obj({
  id: Type.String({ description: 'public API key id (hp_...)' }),
  merchantId: Type.String(),
  label: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  expiresAt: Nullable(Time),
  ipAllowList: Nullable(Type.Array(Type.String())),
  rateLimitPerMinute: Nullable(Type.Integer()),
  createdAt: Time,
  revokedAt: Nullable(Time),
  lastUsedAt: Nullable(Time),
  rotatedTo: Nullable(Type.String({ description: 'the key that replaced this one by rotation' })),
  requireSignatureV2: Type.Boolean({ description: 'true: version-1 signatures are refused (SIGNATURE_V2_REQUIRED); sign with signature-version: 2' }),
});

export const CreatedKeyView = obj(
  {
    ...KeyView.properties,
    apiKey: Type.String({ description: 'the api-key header value (same as id)' }),
    apiSecret: Type.String({ description: 'the API secret: shown in this answer only, never again' }),
  },
  'The new key with its secret.',
);

export const RotationView = obj({ old: KeyView, new: CreatedKeyView });

export const GrantView = obj({ keyId: Type.String(), merchantId: Type.String(), createdAt: Time });

export const AdminWalletView = obj({ merchantId: Type.String(), ...Wallet.properties });

export const WalletSummaryView = obj({
  id: Type.String(),
  merchantId: Type.String(),
  asset: Type.String(),
  chain: Type.String(),
  active: Type.Boolean(),
  amount: ExactNumber('Balance.'),
  freezeAmount: ExactNumber('Frozen part of the balance.'),
  createdAt: Time,
  updatedAt: Time,
});

export const NetworkView = Network;

export const PostingView = obj({
  id: Type.String(),
  walletId: Type.String(),
  kind: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('freeze'), Type.Literal('unfreeze')]),
  amount: ExactNumber('Posted amount.'),
  idempotencyKey: Type.String(),
  amountAfter: ExactNumber('Balance after this posting.'),
  freezeAmountAfter: ExactNumber('Frozen amount after this posting.'),
  createdAt: Time,
});

export const PostingResultView = obj({
  posting: PostingView,
  replayed: Type.Boolean({ description: 'true: this idempotency key was used before for the same posting; nothing was applied again' }),
});

export const FeeTierView = obj({
  id: Type.String(),
  merchantId: Nullable(Type.String({ description: "null: the operator's default schedule" })),
  currency: Type.String(),
  fromAmount: ExactNumber('Smallest amount this tier applies to.'),
  isPercentage: Type.Boolean(),
  value: ExactNumber('Percentage, or fixed fee.'),
  minValue: ExactNumber('Smallest fee.'),
  onChainFee: ExactNumber('Network fee added on top.'),
  createdAt: Time,
  updatedAt: Time,
});

export const SettlementView = obj({
  merchantId: Nullable(Type.String()),
  currency: Type.String(),
  settlementCurrency: Type.String(),
  updatedAt: Type.Optional(Time),
});

export const RateView = obj({
  base: Type.String(),
  quote: Type.String(),
  rate: ExactNumber('1 base = rate quote.'),
  source: Type.String({ description: 'where the rate came from (default manual)' }),
  updatedAt: Time,
});

export const FeePreviewView = obj({ ...FeePreview.properties });

/** A changed object as the admin API showed it (its view), whatever its type. */
const Snapshot = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const AuditEntryView = obj({
  id: Type.String(),
  at: Time,
  operator: Type.String({ description: 'operator token name, cli:<user> or demo' }),
  action: Type.String({ description: 'e.g. merchant.create, api_key.revoke, wallet.credit' }),
  objectType: Type.String(),
  objectId: Type.String(),
  before: Nullable(Snapshot('The object before the change; null when it was created by it.')),
  after: Nullable(Snapshot('The object after the change; null when it was deleted by it.')),
  requestId: Nullable(Type.String()),
});

export const DeletedView = obj({ id: Type.String(), deleted: Type.Literal(true) });
