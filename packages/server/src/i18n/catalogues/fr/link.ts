import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Paiement à {merchant}',
  'link.items': 'Articles',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Total à payer',
  'link.amountLabel': 'Montant ({currency})',
  'link.amountAtLeast': 'Au moins {min}.',
  'link.amountAtMost': 'Au plus {max}.',
  'link.amountBetween': 'De {min} à {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Montants entiers uniquement.} one {Jusqu’à # décimale.} other {Jusqu’à # décimales.}}',
  'link.email': 'E-mail',
  'link.emailOptional': 'E-mail (facultatif)',
  'link.emailHint': 'Le marchand y enverra votre reçu.',
  'link.pay': 'Payer',
  'link.footer': 'Lien de paiement de {merchant}, traité par hostpay.',
  'link.amountMissing': 'Saisissez le montant à payer en {currency}.',
  'link.amountNotNumber': 'Saisissez le montant sous forme de nombre supérieur à 0, par exemple 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Saisissez un montant entier, sans décimales.} one {Saisissez un montant avec # décimale au plus.} other {Saisissez un montant avec # décimales au plus.}}',
  'link.amountTooSmall': 'Le montant doit être d’au moins {min}.',
  'link.amountTooLarge': 'Le montant ne doit pas dépasser {max}.',
  'link.emailRequired': 'Saisissez votre adresse e-mail : le marchand en a besoin pour ce paiement.',
  'link.emailInvalid': 'Saisissez une seule adresse e-mail, par exemple nom@example.com.',
  'link.formTooOld':
    'Ce formulaire date de plus de {minutes, plural, one {# minute} other {# minutes}}. Vérifiez les informations et appuyez à nouveau sur Payer.',
  'link.inactiveTitle': 'Ce lien de paiement est désactivé',
  'link.inactiveMessage': 'Le marchand l’a désactivé. Demandez-lui un nouveau lien.',
  'link.expiredTitle': 'Ce lien de paiement a expiré',
  'link.expiredMessage': 'Il n’accepte plus de paiements depuis le {when}. Demandez un nouveau lien au marchand.',
  'link.usedUpTitle': 'Ce lien de paiement est épuisé',
  'link.usedUpMessage':
    'Il était prévu pour {count, plural, one {# paiement} other {# paiements}} et n’en accepte plus. Demandez un nouveau lien au marchand.',
  'link.notFoundTitle': 'Lien de paiement introuvable',
  'link.notFoundMessage': 'Ce lien de paiement n’est pas valide, ou il a été mal saisi. Vérifiez le lien reçu.',
  'link.notStartedTitle': 'Paiement non lancé',
  'link.crossSite':
    'Ce formulaire ne peut être envoyé que depuis sa propre page. Rouvrez le lien de paiement et réessayez depuis celui-ci.',
  'link.merchantCannotTake':
    'Le marchand ne peut pas accepter de paiements pour le moment. Réessayez plus tard, ou contactez le marchand.',
  'link.tooManyTitle': 'Trop de requêtes',
  'link.tooManyMessage': 'Patientez {seconds, plural, one {# seconde} other {# secondes}}, puis réessayez.',
} satisfies Messages<typeof en>;
