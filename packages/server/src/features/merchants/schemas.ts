import { Type } from '@sinclair/typebox';
import { obj, Time } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

export const MerchantView = obj({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  createdAt: Time,
  updatedAt: Time,
});
