import { ExactNumber } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { obj, Time } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

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
  replayed: Type.Boolean({
    description: 'true: this idempotency key was used before for the same posting; nothing was applied again',
  }),
});
