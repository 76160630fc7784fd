import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Reembolso de',
  'refund.paidBackIn': 'Devolvido em {asset} na rede {network}.',
  'refund.formTitle': 'Receba seu reembolso',
  'refund.checkAddressTitle': 'Confira o endereço',
  'refund.whereHeading': 'Para onde enviar o reembolso?',
  'refund.whereMessage':
    'Informe o seu próprio endereço {asset} na rede {network}. Este link só pode ser usado uma vez, até {when}.',
  'refund.addressLabel': 'Seu endereço {asset} na rede {network}',
  'refund.addressHintHex':
    'Começa com {starts}, seguido de {count, plural, one {# caractere} other {# caracteres}}: letras de a a f e algarismos.',
  'refund.addressHintLength': 'Começa com {starts} e tem {count, plural, one {# caractere} other {# caracteres}}.',
  'refund.addressHintStarts': 'Começa com {starts}.',
  'refund.otherNetwork': 'Dinheiro enviado para um endereço de outra rede é perdido.',
  'refund.submit': 'Receber o reembolso neste endereço',
  'refund.addressMissing': 'Informe o endereço para onde o reembolso deve ser enviado.',
  'refund.addressBurn':
    'Não é possível enviar o reembolso para este endereço: ninguém tem a chave dele, então o dinheiro enviado para lá nunca poderá ser gasto. Informe um endereço que você controla.',
  'refund.addressInvalid':
    'Não é possível enviar o reembolso para este endereço: confira se é o seu endereço {asset} na rede {network}, completo e sem erros de digitação.',
  'refund.requestedTitle': 'Reembolso solicitado',
  'refund.requestedMessage':
    '{amount} serão enviados para {address}. {merchant} já foi avisado; o reembolso é enviado assim que for aprovado. Você pode fechar esta página.',
  'refund.usedTitle': 'Link de reembolso já usado',
  'refund.usedHeading': 'Este link de reembolso já foi usado',
  'refund.usedMessage':
    'Um endereço foi informado em {when}; cada link funciona uma única vez. Se não foi você, entre em contato com {merchant}.',
  'refund.expiredTitle': 'Link de reembolso expirado',
  'refund.expiredHeading': 'Este link de reembolso expirou',
  'refund.expiredMessage': 'Ele era válido até {when}. Peça um novo a {merchant}.',
  'refund.nothingLeftTitle': 'Não há nada a reembolsar',
  'refund.nothingLeftMessage':
    'Este pagamento já foi reembolsado. Entre em contato com {merchant} se você esperava mais.',
  'refund.notFoundTitle': 'Link de reembolso não encontrado',
  'refund.notFoundMessage':
    'Este link de reembolso não é válido ou foi digitado errado. Confira o link que você recebeu ou peça um novo ao lojista.',
  'refund.notRequestedTitle': 'Reembolso não solicitado',
  'refund.crossSite':
    'Este formulário só pode ser enviado pela própria página. Abra o link de reembolso que você recebeu e tente de novo.',
  'refund.merchantCannotPay':
    'O lojista não pode pagar este reembolso agora. Seu link continua válido: tente mais tarde ou entre em contato com o lojista.',
  'refund.tooManyTitle': 'Muitas solicitações',
  'refund.tooManyMessage': 'Aguarde {seconds, plural, one {# segundo} other {# segundos}} e recarregue esta página.',
  'refund.footer': 'Reembolso do pagamento {checkoutId}, processado por hostpay.',
} satisfies Messages<typeof en>;
