/** The dashboard front's words on its security screen (keys `security.*`), ICU as in src/i18n/catalogues. */
export default {
  'security.detailWhat': 'entry',
  'security.title': 'Security log',
  'security.what': 'the security log',
  'security.caption': 'Security log, newest first',
  'security.empty': 'Nothing recorded yet.',
  'security.at': 'At',
  'security.user': 'User',
  'security.action': 'Action',
  'security.address': 'Address',
} as const satisfies Record<`security.${string}`, string>;
