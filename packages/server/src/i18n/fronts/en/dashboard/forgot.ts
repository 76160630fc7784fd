/** The dashboard front's words on its forgot screen (keys `forgot.*`), ICU as in src/i18n/catalogues. */
export default {
  'forgot.sent': 'If an account of this email exists, a reset link is on its way: check your mail.',
  'forgot.title': 'Forgot your password?',
  'forgot.email': 'Email of your account',
  'forgot.submit': 'Mail me a reset link',
  'forgot.back': 'Back to sign-in',
} as const satisfies Record<`forgot.${string}`, string>;
