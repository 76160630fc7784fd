import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Pagamento para {merchant}',
  'link.items': 'Itens',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Total a pagar',
  'link.amountLabel': 'Valor ({currency})',
  'link.amountAtLeast': 'No mínimo {min}.',
  'link.amountAtMost': 'No máximo {max}.',
  'link.amountBetween': 'De {min} a {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Somente valores inteiros.} one {Até # casa decimal.} other {Até # casas decimais.}}',
  'link.email': 'E-mail',
  'link.emailOptional': 'E-mail (opcional)',
  'link.emailHint': 'O lojista enviará seu recibo para esse endereço.',
  'link.pay': 'Pagar',
  'link.footer': 'Link de pagamento de {merchant}, processado por hostpay.',
  'link.amountMissing': 'Informe o valor a pagar em {currency}.',
  'link.amountNotNumber': 'Informe o valor como um número maior que 0, por exemplo 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Informe um valor inteiro, sem casas decimais.} one {Informe um valor com no máximo # casa decimal.} other {Informe um valor com no máximo # casas decimais.}}',
  'link.amountTooSmall': 'O valor deve ser de no mínimo {min}.',
  'link.amountTooLarge': 'O valor deve ser de no máximo {max}.',
  'link.emailRequired': 'Informe seu e-mail: o lojista precisa dele para este pagamento.',
  'link.emailInvalid': 'Informe um único endereço de e-mail, por exemplo nome@example.com.',
  'link.formTooOld':
    'Este formulário tem mais de {minutes, plural, one {# minuto} other {# minutos}}. Confira os dados e clique em Pagar novamente.',
  'link.inactiveTitle': 'Este link de pagamento está desativado',
  'link.inactiveMessage': 'O lojista desativou este link. Peça um novo a ele.',
  'link.expiredTitle': 'Este link de pagamento expirou',
  'link.expiredMessage': 'Ele deixou de aceitar pagamentos em {when}. Peça um novo link ao lojista.',
  'link.usedUpTitle': 'Este link de pagamento está esgotado',
  'link.usedUpMessage':
    'Ele foi criado para {count, plural, one {# pagamento} other {# pagamentos}} e não aceita mais nenhum. Peça um novo link ao lojista.',
  'link.notFoundTitle': 'Link de pagamento não encontrado',
  'link.notFoundMessage':
    'Este link de pagamento não é válido ou foi digitado errado. Confira o link que você recebeu.',
  'link.notStartedTitle': 'Pagamento não iniciado',
  'link.crossSite':
    'Este formulário só pode ser enviado pela própria página. Abra o link de pagamento novamente e tente por lá.',
  'link.merchantCannotTake':
    'O lojista não pode receber pagamentos agora. Tente mais tarde ou entre em contato com o lojista.',
  'link.tooManyTitle': 'Muitas solicitações',
  'link.tooManyMessage': 'Aguarde {seconds, plural, one {# segundo} other {# segundos}} e tente novamente.',
} satisfies Messages<typeof en>;
