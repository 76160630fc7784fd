/**
 * What the hot wallet needs of the payouts feature: the port payouts offers every sender,
 * imported from there (hot-wallet → payouts; payouts never imports a sender), so the two cannot
 * drift apart.
 */
export type { PayoutJob, PayoutSenderPort, SentPayoutJob } from '../payouts/sender-port.js';
