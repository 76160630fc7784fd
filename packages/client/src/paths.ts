import type { PATHS as WirePaths } from '@hostpay/protocol';

/** The protocol's paths, copied so nothing of protocol is bundled; `satisfies` keeps them equal. */
export const PATHS = {
  wallets: '/api/v1/cp/wallets/',
  feesPreview: '/api/v1/cp/psp/hosted-pay/fees-preview',
  token: '/api/v1/auth/token',
  time: '/api/v1/time',
} as const satisfies typeof WirePaths;
