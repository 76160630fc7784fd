import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Remboursement de',
  'refund.paidBackIn': 'Remboursé en {asset} sur le réseau {network}.',
  'refund.formTitle': 'Recevoir votre remboursement',
  'refund.checkAddressTitle': 'Vérifiez l’adresse',
  'refund.whereHeading': 'Où envoyer le remboursement ?',
  'refund.whereMessage':
    'Saisissez votre propre adresse {asset} sur le réseau {network}. Ce lien ne sert qu’une fois, jusqu’au {when}.',
  'refund.addressLabel': 'Votre adresse {asset} sur le réseau {network}',
  'refund.addressHintHex':
    'Elle commence par {starts} suivi de {count, plural, one {# caractère} other {# caractères}} : lettres de a à f et chiffres.',
  'refund.addressHintLength':
    'Elle commence par {starts} et compte {count, plural, one {# caractère} other {# caractères}}.',
  'refund.addressHintStarts': 'Elle commence par {starts}.',
  'refund.otherNetwork': 'L’argent envoyé à une adresse d’un autre réseau est perdu.',
  'refund.submit': 'Envoyer mon remboursement ici',
  'refund.addressMissing': 'Saisissez l’adresse à laquelle envoyer le remboursement.',
  'refund.addressBurn':
    'Le remboursement ne peut pas être envoyé à cette adresse : personne n’en détient la clé, l’argent envoyé là ne pourra jamais être dépensé. Indiquez une adresse que vous contrôlez.',
  'refund.addressInvalid':
    'Le remboursement ne peut pas être envoyé à cette adresse : vérifiez qu’il s’agit bien de votre adresse {asset} sur le réseau {network}, complète et sans faute de frappe.',
  'refund.requestedTitle': 'Remboursement demandé',
  'refund.requestedMessage':
    '{amount} seront envoyés à {address}. {merchant} a été prévenu ; le remboursement part dès qu’il est approuvé. Vous pouvez fermer cette page.',
  'refund.usedTitle': 'Lien de remboursement déjà utilisé',
  'refund.usedHeading': 'Ce lien de remboursement a déjà été utilisé',
  'refund.usedMessage':
    'Une adresse a été donnée le {when} ; un lien ne sert qu’une fois. Si ce n’était pas vous, contactez {merchant}.',
  'refund.expiredTitle': 'Lien de remboursement expiré',
  'refund.expiredHeading': 'Ce lien de remboursement a expiré',
  'refund.expiredMessage': 'Il était valable jusqu’au {when}. Demandez-en un nouveau à {merchant}.',
  'refund.nothingLeftTitle': 'Plus rien à rembourser',
  'refund.nothingLeftMessage': 'Ce paiement a déjà été remboursé. Contactez {merchant} si vous attendiez davantage.',
  'refund.notFoundTitle': 'Lien de remboursement introuvable',
  'refund.notFoundMessage':
    'Ce lien de remboursement n’est pas valide, ou il a été mal saisi. Vérifiez le lien reçu, ou demandez-en un nouveau au marchand.',
  'refund.notRequestedTitle': 'Remboursement non demandé',
  'refund.crossSite':
    'Ce formulaire ne peut être envoyé que depuis sa propre page. Ouvrez le lien de remboursement reçu et réessayez.',
  'refund.merchantCannotPay':
    'Le marchand ne peut pas payer ce remboursement pour le moment. Votre lien reste valable : réessayez plus tard, ou contactez le marchand.',
  'refund.tooManyTitle': 'Trop de requêtes',
  'refund.tooManyMessage':
    'Patientez {seconds, plural, one {# seconde} other {# secondes}}, puis rechargez cette page.',
  'refund.footer': 'Remboursement du paiement {checkoutId}, traité par hostpay.',
} satisfies Messages<typeof en>;
