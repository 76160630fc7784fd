/** Shared by every public page: the document around it, the language picker, the sandbox notice. */
export default {
  'common.language': 'Language',
  'common.sandbox': 'Sandbox: a test server. No real money moves; do not send real funds.',
  'common.sandboxLabel': 'Sandbox notice',
  'common.processedBy': 'processed by hostpay',
};
