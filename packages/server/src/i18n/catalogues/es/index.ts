import common from './common.js';
import pay from './pay.js';
import refund from './refund.js';
import link from './link.js';
import invoice from './invoice.js';
import receipt from './receipt.js';
import mail from './mail.js';

export default { ...common, ...pay, ...refund, ...link, ...invoice, ...receipt, ...mail };
