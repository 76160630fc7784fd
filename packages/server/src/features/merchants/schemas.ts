import { ExactNumber } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { obj, Time } from '../../admin/views.js';
import { PayoutSettingsFields } from './payout-settings.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

export const MerchantView = obj({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  underpaymentTolerancePercent: ExactNumber(
    'How far below amountDue (in percent, 0 to 5) a payment still completes a checkout; copied into each checkout at creation.',
  ),
  ...PayoutSettingsFields,
  createdAt: Time,
  updatedAt: Time,
});
