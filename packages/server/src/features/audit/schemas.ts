import { Type } from '@sinclair/typebox';
import { obj, Time, Nullable } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

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
