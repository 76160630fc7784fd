import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Pago a {merchant}',
  'link.items': 'Artículos',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Total a pagar',
  'link.amountLabel': 'Importe ({currency})',
  'link.amountAtLeast': 'Mínimo {min}.',
  'link.amountAtMost': 'Máximo {max}.',
  'link.amountBetween': 'Entre {min} y {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Solo importes enteros.} one {Hasta # decimal.} other {Hasta # decimales.}}',
  'link.email': 'Correo electrónico',
  'link.emailOptional': 'Correo electrónico (opcional)',
  'link.emailHint': 'El comercio te enviará allí el recibo.',
  'link.pay': 'Pagar',
  'link.footer': 'Enlace de pago de {merchant}, procesado por hostpay.',
  'link.amountMissing': 'Introduce el importe que vas a pagar en {currency}.',
  'link.amountNotNumber': 'Introduce el importe como un número mayor que 0, por ejemplo 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Introduce un importe entero, sin decimales.} one {Introduce un importe con # decimal como máximo.} other {Introduce un importe con # decimales como máximo.}}',
  'link.amountTooSmall': 'El importe debe ser de al menos {min}.',
  'link.amountTooLarge': 'El importe no puede superar {max}.',
  'link.emailRequired': 'Introduce tu correo electrónico: el comercio lo necesita para este pago.',
  'link.emailInvalid': 'Introduce una sola dirección de correo, por ejemplo nombre@example.com.',
  'link.formTooOld':
    'Este formulario tiene más de {minutes, plural, one {# minuto} other {# minutos}}. Revisa los datos y pulsa Pagar de nuevo.',
  'link.inactiveTitle': 'Este enlace de pago está desactivado',
  'link.inactiveMessage': 'El comercio lo ha desactivado. Pídele un enlace nuevo.',
  'link.expiredTitle': 'Este enlace de pago ha caducado',
  'link.expiredMessage': 'Dejó de aceptar pagos el {when}. Pide un enlace nuevo al comercio.',
  'link.usedUpTitle': 'Este enlace de pago está agotado',
  'link.usedUpMessage':
    'Se creó para {count, plural, one {# pago} other {# pagos}} y ya no admite más. Pide un enlace nuevo al comercio.',
  'link.notFoundTitle': 'Enlace de pago no encontrado',
  'link.notFoundMessage': 'Este enlace de pago no es válido o se escribió mal. Revisa el enlace que recibiste.',
  'link.notStartedTitle': 'Pago no iniciado',
  'link.crossSite':
    'Este formulario solo se puede enviar desde su propia página. Vuelve a abrir el enlace de pago e inténtalo allí.',
  'link.merchantCannotTake':
    'El comercio no puede aceptar pagos en este momento. Inténtalo más tarde o contacta con el comercio.',
  'link.tooManyTitle': 'Demasiadas solicitudes',
  'link.tooManyMessage': 'Espera {seconds, plural, one {# segundo} other {# segundos}} y vuelve a intentarlo.',
} satisfies Messages<typeof en>;
