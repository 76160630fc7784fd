/**
 * The dashboard's English catalogue, one file per screen (`shell` for the frame: navigation, sign-in
 * state, shared labels). Keys are prefixed by their file, so two files cannot share one.
 */
import auth from './auth.js';
import checkoutActivity from './checkout-activity.js';
import checkoutMoney from './checkout-money.js';
import checkouts from './checkouts.js';
import events from './events.js';
import forgot from './forgot.js';
import home from './home.js';
import invoiceForm from './invoice-form.js';
import invoices from './invoices.js';
import keys from './keys.js';
import linkForm from './link-form.js';
import links from './links.js';
import notifications from './notifications.js';
import payoutDetail from './payout-detail.js';
import payouts from './payouts.js';
import reports from './reports.js';
import security from './security.js';
import settings from './settings.js';
import shell from './shell.js';
import team from './team.js';
import webhooks from './webhooks.js';

export default {
  ...auth,
  ...checkoutActivity,
  ...checkoutMoney,
  ...checkouts,
  ...events,
  ...forgot,
  ...home,
  ...invoiceForm,
  ...invoices,
  ...keys,
  ...linkForm,
  ...links,
  ...notifications,
  ...payoutDetail,
  ...payouts,
  ...reports,
  ...security,
  ...settings,
  ...shell,
  ...team,
  ...webhooks,
};
