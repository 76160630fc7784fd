import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Payer {merchant} · hostpay',
  'pay.paymentTo': 'Paiement à',
  'pay.detailsLabel': 'Détails du paiement',
  'pay.optionLabel': '{asset} sur {network}',
  'pay.changeNetwork': 'Changer de réseau',
  'pay.sendExactly': 'Envoyez exactement',
  'pay.copy': 'Copier',
  'pay.copyAmountRest': 'le montant',
  'pay.copyAddressRest': 'l’adresse',
  'pay.copied': 'Copié',
  'pay.copiedAnnounce': '{value} copié',
  'pay.toAddress': 'À cette adresse {network} sur {chain}',
  'pay.qrAlt': 'Code QR : envoyez {amount} {asset} à {address}',
  'pay.openWallet': 'Ouvrir dans une application de portefeuille',
  'pay.receivedSoFar': 'Reçu jusqu’à présent : {amount} {asset}.',
  'pay.networkWarning': 'N’envoyez que des {asset} sur {network} ; tout autre actif ou réseau sera perdu ou retardé.',
  'pay.networkHeading': 'Réseau',
  'pay.paymentsReceived': 'Paiements reçus',
  'pay.paymentItem': '{amount} sur {chain} : transaction {tx}',
  'pay.opensExplorer': '(ouvre un explorateur de blocs)',
  'pay.viewReceipt': 'Voir votre reçu {number}',
  'pay.noscript': 'Rechargez cette page pour voir si votre paiement est arrivé.',
  'pay.timeLeft': 'Temps restant : {time} (jusqu’à {clock} UTC)',
  'pay.footer': 'Demande de paiement {id}, traitée par hostpay.',
  'pay.openTitle': 'En attente de votre paiement',
  'pay.openMessage': 'Envoyez exactement le montant ci-dessous à l’adresse ci-dessous avant la fin du délai.',
  'pay.cancelLink': 'Annuler et revenir à {merchant}',
  'pay.underpaidTitle': 'Payé en partie',
  'pay.underpaidMessage': 'Une partie du montant est arrivée. Envoyez le reste avant la fin du délai.',
  'pay.underpaidRemaining':
    'Nous avons reçu {received} {asset}. Envoyez les {remaining} {asset} restants sur {network} à la même adresse avant la fin du délai.',
  'pay.processingTitle': 'Paiement reçu, en cours de confirmation',
  'pay.processingMessage': 'Votre paiement est en cours de confirmation. Vous pouvez fermer cette page.',
  'pay.processingConfirmations':
    '{confirmedCount} sur {requiredCount, plural, one {# confirmation} other {# confirmations}} pour l’instant sur {network}. Plus rien à envoyer ; cette page se met à jour toute seule.',
  'pay.settledTitle': 'Payé',
  'pay.settledMessage': 'Paiement terminé. Merci.',
  'pay.returnLink': 'Revenir à {merchant}',
  'pay.overpaidComplete': 'Paiement terminé.',
  'pay.overpaidExcess':
    'Vous avez envoyé {excess} {asset} de plus que les {due} {asset} dus. Ce surplus est allé à {merchant} avec le paiement : demandez-lui de vous rembourser la différence si vous souhaitez la récupérer.',
  'pay.overpaidOther':
    'Les {amount} {asset} également envoyés sur {network} n’étaient pas nécessaires pour ce paiement : ils sont conservés, non crédités. Contactez {merchant} pour les récupérer.',
  'pay.overpaidUnknown': 'Vous avez envoyé plus que le montant dû : contactez {merchant} au sujet de la différence.',
  'pay.expiredTitle': 'Cette demande de paiement a expiré',
  'pay.expiredMessage': 'N’envoyez rien à son adresse. Demandez un nouveau lien de paiement à {merchant}.',
  'pay.canceledTitle': 'Paiement annulé',
  'pay.canceledMessage': '{merchant} a annulé cette demande de paiement. N’envoyez rien à son adresse.',
  'pay.reviewTitle': 'Paiement en cours de vérification',
  'pay.reviewPartial':
    'Contactez {merchant} : une partie du montant est arrivée avant la fin du délai, mais pas le reste. N’envoyez rien de plus.',
  'pay.reviewLate':
    'Contactez {merchant} : un paiement est arrivé après la fin de cette demande. N’envoyez rien de plus.',
  'pay.reviewWrongAsset':
    'Contactez {merchant} : un paiement est arrivé dans un actif que cette demande ne prévoyait pas. N’envoyez rien de plus.',
  'pay.reviewOther': 'Contactez {merchant} : ce paiement doit être vérifié manuellement. N’envoyez rien de plus.',
  'pay.invalidTitle': 'Paiement refusé',
  'pay.invalidMessage': 'Ce paiement a été refusé après vérification. Contactez {merchant}.',
  'pay.otherMessage': 'Contactez {merchant}.',
  'pay.footerWaiting':
    'Gardez cette page ouverte jusqu’à ce qu’elle indique « Payé » : elle se met à jour toute seule.',
  'pay.footerProcessing':
    'Plus rien à envoyer. Vous pouvez garder cette page ouverte pour voir le paiement confirmé, ou la fermer.',
  'pay.footerSettled': 'Ce paiement est terminé : vous pouvez fermer cette page.',
  'pay.footerEnded': 'Cette demande est terminée : plus aucun envoi à son adresse n’est attendu.',
  'pay.footerReview': 'Conservez le hash de transaction de votre envoi : le marchand pourrait vous le demander.',
  'pay.footerOther': 'Contactez le marchand au sujet de ce paiement.',
  'pay.notFoundTitle': 'Page de paiement introuvable',
  'pay.notFoundMessage':
    'Ce lien de paiement n’est pas valide, ou il a été mal saisi. Vérifiez le lien que vous avez reçu, ou demandez-en un nouveau au marchand.',
  'pay.tooManyTitle': 'Trop de requêtes',
  'pay.tooManyMessage': 'Attendez {seconds, plural, one {# seconde} other {# secondes}}, puis rechargez cette page.',
} satisfies Messages<typeof en>;
