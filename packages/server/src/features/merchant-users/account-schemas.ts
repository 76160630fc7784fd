import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { Type } from '@sinclair/typebox';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';

/** Request and answer shapes the account routes share. */
export const Password = (description: string) =>
  Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description });
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' });
export const TokenParams = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export const Enrol = Type.Object(
  {
    stage: Type.Literal('enrol'),
    totpSecret: Type.String({ description: 'base32, for authenticator apps that take it typed' }),
    otpauthUri: Type.String({ description: 'the otpauth:// URI to show as a QR code' }),
    csrfToken: Type.String({ description: 'send as `x-csrf-token` on POST /dashboard/api/totp/confirm' }),
  },
  { additionalProperties: false },
);
export const TotpStage = Type.Object(
  {
    stage: Type.Literal('totp'),
    csrfToken: Type.String({ description: 'send as `x-csrf-token` on POST /dashboard/api/sign-in/totp' }),
  },
  { additionalProperties: false },
);
export const tags = ['dashboard'];

/** The dashboard's account services, as the feature gives them to its routes. */
export type AccountServices = ReturnType<FeatureRouteContext<'merchantUsers'>['merchantUsers']['forApp']>;
