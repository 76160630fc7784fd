import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Pagar a {merchant} · hostpay',
  'pay.paymentTo': 'Pago a',
  'pay.detailsLabel': 'Datos del pago',
  'pay.optionLabel': '{asset} en {network}',
  'pay.changeNetwork': 'Cambiar de red',
  'pay.sendExactly': 'Envíe exactamente',
  'pay.copy': 'Copiar',
  'pay.copyAmountRest': 'la cantidad',
  'pay.copyAddressRest': 'la dirección',
  'pay.copied': 'Copiado',
  'pay.copiedAnnounce': '{value} copiado',
  'pay.toAddress': 'A esta dirección de {network} en {chain}',
  'pay.qrAlt': 'Código QR: envíe {amount} {asset} a {address}',
  'pay.openWallet': 'Abrir en una aplicación de billetera',
  'pay.receivedSoFar': 'Recibido hasta ahora: {amount} {asset}.',
  'pay.networkWarning': 'Envíe solo {asset} en {network}; otros activos u otras redes se pierden o se retrasan.',
  'pay.networkHeading': 'Red',
  'pay.paymentsReceived': 'Pagos recibidos',
  'pay.paymentItem': '{amount} en {chain}: transacción {tx}',
  'pay.opensExplorer': '(abre un explorador de bloques)',
  'pay.viewReceipt': 'Ver su recibo {number}',
  'pay.noscript': 'Recargue esta página para ver si su pago ha llegado.',
  'pay.timeLeft': 'Tiempo restante: {time} (hasta las {clock} UTC)',
  'pay.footer': 'Solicitud de pago {id}, procesada por hostpay.',
  'pay.openTitle': 'Esperando su pago',
  'pay.openMessage':
    'Envíe exactamente la cantidad indicada abajo a la dirección indicada abajo antes de que se acabe el tiempo.',
  'pay.cancelLink': 'Cancelar y volver a {merchant}',
  'pay.underpaidTitle': 'Pagado en parte',
  'pay.underpaidMessage': 'Ha llegado parte de la cantidad. Envíe el resto antes de que se acabe el tiempo.',
  'pay.underpaidRemaining':
    'Hemos recibido {received} {asset}. Envíe los {remaining} {asset} restantes en {network} a la misma dirección antes de que se acabe el tiempo.',
  'pay.processingTitle': 'Pago recibido, en confirmación',
  'pay.processingMessage': 'Su pago se está confirmando. Puede cerrar esta página.',
  'pay.processingConfirmations':
    '{confirmedCount} de {requiredCount, plural, one {# confirmación} other {# confirmaciones}} hasta ahora en {network}. No tiene que enviar nada más; esta página se actualiza sola.',
  'pay.settledTitle': 'Pagado',
  'pay.settledMessage': 'Pago completado. Gracias.',
  'pay.returnLink': 'Volver a {merchant}',
  'pay.overpaidComplete': 'Pago completado.',
  'pay.overpaidExcess':
    'Envió {excess} {asset} más de los {due} {asset} que debía. Ese excedente fue a {merchant} junto con el pago: pídale que le devuelva la diferencia si la quiere recuperar.',
  'pay.overpaidOther':
    'Los {amount} {asset} enviados además en {network} no eran necesarios para este pago y quedan retenidos, sin abonarse: contacte con {merchant} para recuperarlos.',
  'pay.overpaidUnknown': 'Envió más de lo que debía: contacte con {merchant} por la diferencia.',
  'pay.expiredTitle': 'Esta solicitud de pago ha caducado',
  'pay.expiredMessage': 'No envíe nada a su dirección. Pida a {merchant} un nuevo enlace de pago.',
  'pay.canceledTitle': 'Pago cancelado',
  'pay.canceledMessage': '{merchant} canceló esta solicitud de pago. No envíe nada a su dirección.',
  'pay.reviewTitle': 'Pago en revisión',
  'pay.reviewPartial':
    'Contacte con {merchant}: parte de la cantidad llegó antes de que se acabara el tiempo y el resto no. No envíe nada más.',
  'pay.reviewLate':
    'Contacte con {merchant}: llegó un pago después de que esta solicitud terminara. No envíe nada más.',
  'pay.reviewWrongAsset':
    'Contacte con {merchant}: llegó un pago en un activo que esta solicitud no pedía. No envíe nada más.',
  'pay.reviewOther': 'Contacte con {merchant}: este pago necesita una revisión manual. No envíe nada más.',
  'pay.invalidTitle': 'Pago rechazado',
  'pay.invalidMessage': 'Este pago fue rechazado tras su revisión. Contacte con {merchant}.',
  'pay.otherMessage': 'Contacte con {merchant}.',
  'pay.footerWaiting': 'Mantenga esta página abierta hasta que indique «Pagado»: se actualiza sola.',
  'pay.footerProcessing':
    'No tiene que enviar nada más. Puede mantener esta página abierta para ver el pago confirmado, o cerrarla.',
  'pay.footerSettled': 'Este pago está completado: puede cerrar esta página.',
  'pay.footerEnded': 'Esta solicitud ha terminado: a partir de ahora no se espera nada enviado a su dirección.',
  'pay.footerReview': 'Guarde el hash de la transacción que envió: el comercio podría pedírselo.',
  'pay.footerOther': 'Contacte con el comercio por este pago.',
  'pay.notFoundTitle': 'Página de pago no encontrada',
  'pay.notFoundMessage':
    'Este enlace de pago no es válido o se escribió mal. Revise el enlace que le dieron o pida uno nuevo al comercio.',
  'pay.tooManyTitle': 'Demasiadas solicitudes',
  'pay.tooManyMessage': 'Espere {seconds, plural, one {# segundo} other {# segundos}} y luego recargue esta página.',
} satisfies Messages<typeof en>;
