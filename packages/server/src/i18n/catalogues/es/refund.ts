import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Reembolso de',
  'refund.paidBackIn': 'Se reembolsa en {asset} en la red {network}.',
  'refund.formTitle': 'Recibe tu reembolso',
  'refund.checkAddressTitle': 'Revisa la dirección',
  'refund.whereHeading': '¿A dónde enviamos el reembolso?',
  'refund.whereMessage':
    'Introduce tu propia dirección de {asset} en la red {network}. Este enlace solo se puede usar una vez, hasta el {when}.',
  'refund.addressLabel': 'Tu dirección de {asset} en la red {network}',
  'refund.addressHintHex':
    'Empieza por {starts}, seguido de {count, plural, one {# carácter} other {# caracteres}}: letras de la a a la f y cifras.',
  'refund.addressHintLength': 'Empieza por {starts} y tiene {count, plural, one {# carácter} other {# caracteres}}.',
  'refund.addressHintStarts': 'Empieza por {starts}.',
  'refund.otherNetwork': 'El dinero enviado a una dirección de otra red se pierde.',
  'refund.submit': 'Enviar mi reembolso aquí',
  'refund.addressMissing': 'Introduce la dirección a la que debe enviarse el reembolso.',
  'refund.addressBurn':
    'No se puede enviar el reembolso a esta dirección: nadie tiene su clave, así que el dinero enviado allí nunca podrá gastarse. Indica una dirección que controles.',
  'refund.addressInvalid':
    'No se puede enviar el reembolso a esta dirección: comprueba que sea tu dirección de {asset} en la red {network}, completa y sin errores.',
  'refund.requestedTitle': 'Reembolso solicitado',
  'refund.requestedMessage':
    'Se enviarán {amount} a {address}. Ya hemos avisado a {merchant}; el reembolso se envía en cuanto se aprueba. Puedes cerrar esta página.',
  'refund.usedTitle': 'Enlace de reembolso ya usado',
  'refund.usedHeading': 'Este enlace de reembolso ya se ha usado',
  'refund.usedMessage':
    'Se indicó una dirección el {when}; cada enlace sirve una sola vez. Si no fuiste tú, contacta con {merchant}.',
  'refund.expiredTitle': 'Enlace de reembolso caducado',
  'refund.expiredHeading': 'Este enlace de reembolso ha caducado',
  'refund.expiredMessage': 'Era válido hasta el {when}. Pide uno nuevo a {merchant}.',
  'refund.nothingLeftTitle': 'No queda nada por reembolsar',
  'refund.nothingLeftMessage': 'Este pago ya se ha reembolsado. Contacta con {merchant} si esperabas más.',
  'refund.notFoundTitle': 'Enlace de reembolso no encontrado',
  'refund.notFoundMessage':
    'Este enlace de reembolso no es válido o se escribió mal. Revisa el enlace que recibiste o pide uno nuevo al comercio.',
  'refund.notRequestedTitle': 'Reembolso no solicitado',
  'refund.crossSite':
    'Este formulario solo se puede enviar desde su propia página. Abre el enlace de reembolso que recibiste e inténtalo de nuevo.',
  'refund.merchantCannotPay':
    'El comercio no puede pagar este reembolso ahora mismo. Tu enlace sigue siendo válido: inténtalo más tarde o contacta con el comercio.',
  'refund.tooManyTitle': 'Demasiadas solicitudes',
  'refund.tooManyMessage':
    'Espera {seconds, plural, one {# segundo} other {# segundos}} y vuelve a cargar esta página.',
  'refund.footer': 'Reembolso del pago {checkoutId}, procesado por hostpay.',
} satisfies Messages<typeof en>;
