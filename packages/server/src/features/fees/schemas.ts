import { ExactNumber, FeePreview } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { obj, Time, Nullable } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

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

export const FeePreviewView = obj({ ...FeePreview.properties });
