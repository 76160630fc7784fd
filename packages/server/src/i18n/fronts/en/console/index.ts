/**
 * The console's English catalogue, one file per screen (`shell` for the frame: navigation, sign-in
 * state, shared labels). Keys are prefixed by their file, so two files cannot share one.
 */
import audit from './audit.js';
import chains from './chains.js';
import checkouts from './checkouts.js';
import fees from './fees.js';
import keys from './keys.js';
import mail from './mail.js';
import merchants from './merchants.js';
import overview from './overview.js';
import payoutApprovals from './payout-approvals.js';
import payoutHotWallet from './payout-hot-wallet.js';
import payouts from './payouts.js';
import postings from './postings.js';
import queues from './queues.js';
import rateSources from './rate-sources.js';
import reports from './reports.js';
import shell from './shell.js';
import transfers from './transfers.js';
import webhooks from './webhooks.js';

export default {
  ...audit,
  ...chains,
  ...checkouts,
  ...fees,
  ...keys,
  ...mail,
  ...merchants,
  ...overview,
  ...payoutApprovals,
  ...payoutHotWallet,
  ...payouts,
  ...postings,
  ...queues,
  ...rateSources,
  ...reports,
  ...shell,
  ...transfers,
  ...webhooks,
};
