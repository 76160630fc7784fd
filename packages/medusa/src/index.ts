import { ModuleProvider, Modules } from '@medusajs/framework/utils';
import { HostpayPaymentProvider } from './provider.js';

/**
 * The Medusa module provider: `resolve: '@hostpay/medusa'` in the Payment Module's `providers`
 * of `medusa-config.ts`, with `id: 'hostpay'` (the provider is then `pp_hostpay_hostpay`).
 */
export default ModuleProvider(Modules.PAYMENT, { services: [HostpayPaymentProvider] });

export { HostpayPaymentProvider, type HostpaySessionData } from './provider.js';
export type { HostpayOptions } from './options.js';
export type { RefundRecord } from './refunds.js';
export { sessionStatus, eventAction, type SessionStatus, type WebhookAction } from './status.js';
export { toHostpayAmount, refundShare, plainDecimal } from './amounts.js';
