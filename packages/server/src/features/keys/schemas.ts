import { Type } from '@sinclair/typebox';
import { obj, Time, Nullable } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

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
  requireSignatureV2: Type.Boolean({
    description: 'true: version-1 signatures are refused (SIGNATURE_V2_REQUIRED); sign with signature-version: 2',
  }),
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
