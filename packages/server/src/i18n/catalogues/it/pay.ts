import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Paga {merchant} · hostpay',
  'pay.paymentTo': 'Pagamento a',
  'pay.detailsLabel': 'Dettagli del pagamento',
  'pay.optionLabel': '{asset} su {network}',
  'pay.changeNetwork': 'Cambia rete',
  'pay.sendExactly': 'Invia esattamente',
  'pay.copy': 'Copia',
  'pay.copyAmountRest': 'importo',
  'pay.copyAddressRest': 'indirizzo',
  'pay.copied': 'Copiato',
  'pay.copiedAnnounce': '{value} copiato',
  'pay.toAddress': 'A questo indirizzo {network} su {chain}',
  'pay.qrAlt': 'Codice QR: invia {amount} {asset} a {address}',
  'pay.openWallet': 'Apri in un’app wallet',
  'pay.receivedSoFar': 'Ricevuto finora: {amount} {asset}.',
  'pay.networkWarning': 'Invia solo {asset} su {network}: altri asset o altre reti vanno persi o arrivano in ritardo.',
  'pay.networkHeading': 'Rete',
  'pay.paymentsReceived': 'Pagamenti ricevuti',
  'pay.paymentItem': '{amount} su {chain}: transazione {tx}',
  'pay.opensExplorer': '(apre un block explorer)',
  'pay.viewReceipt': 'Visualizza la ricevuta {number}',
  'pay.noscript': 'Ricarica questa pagina per vedere se il pagamento è arrivato.',
  'pay.timeLeft': 'Tempo rimasto: {time} (fino alle {clock} UTC)',
  'pay.footer': 'Richiesta di pagamento {id}, elaborata da hostpay.',
  'pay.openTitle': 'In attesa del pagamento',
  'pay.openMessage':
    'Invia esattamente l’importo indicato sotto all’indirizzo indicato sotto prima che scada il tempo.',
  'pay.cancelLink': 'Annulla e torna a {merchant}',
  'pay.underpaidTitle': 'Pagato in parte',
  'pay.underpaidMessage': 'Una parte dell’importo è arrivata. Invia il resto prima che scada il tempo.',
  'pay.underpaidRemaining':
    'Abbiamo ricevuto {received} {asset}. Invia i restanti {remaining} {asset} su {network} allo stesso indirizzo prima che scada il tempo.',
  'pay.processingTitle': 'Pagamento ricevuto, in conferma',
  'pay.processingMessage': 'Il pagamento è in fase di conferma. Puoi chiudere questa pagina.',
  'pay.processingConfirmations':
    '{confirmedCount} su {requiredCount, plural, one {# conferma} other {# conferme}} finora su {network}. Non devi inviare altro; questa pagina si aggiorna da sola.',
  'pay.settledTitle': 'Pagato',
  'pay.settledMessage': 'Pagamento completato. Grazie.',
  'pay.returnLink': 'Torna a {merchant}',
  'pay.overpaidComplete': 'Pagamento completato.',
  'pay.overpaidExcess':
    'Hai inviato {excess} {asset} in più rispetto ai {due} {asset} dovuti. L’eccedenza è andata a {merchant} insieme al pagamento: chiedi il rimborso della differenza se la rivuoi.',
  'pay.overpaidOther':
    'I {amount} {asset} inviati anche su {network} non servivano per questo pagamento e sono trattenuti, non accreditati: contatta {merchant} per riaverli.',
  'pay.overpaidUnknown': 'Hai inviato più del dovuto: contatta {merchant} per la differenza.',
  'pay.expiredTitle': 'Questa richiesta di pagamento è scaduta',
  'pay.expiredMessage': 'Non inviare nulla al suo indirizzo. Chiedi a {merchant} un nuovo link di pagamento.',
  'pay.canceledTitle': 'Pagamento annullato',
  'pay.canceledMessage': '{merchant} ha annullato questa richiesta di pagamento. Non inviare nulla al suo indirizzo.',
  'pay.reviewTitle': 'Pagamento in verifica',
  'pay.reviewPartial':
    'Contatta {merchant}: una parte dell’importo è arrivata prima della scadenza, il resto no. Non inviare altro.',
  'pay.reviewLate':
    'Contatta {merchant}: un pagamento è arrivato dopo la chiusura di questa richiesta. Non inviare altro.',
  'pay.reviewWrongAsset':
    'Contatta {merchant}: un pagamento è arrivato in un asset che questa richiesta non prevedeva. Non inviare altro.',
  'pay.reviewOther': 'Contatta {merchant}: questo pagamento richiede una verifica manuale. Non inviare altro.',
  'pay.invalidTitle': 'Pagamento rifiutato',
  'pay.invalidMessage': 'Questo pagamento è stato rifiutato dopo la verifica. Contatta {merchant}.',
  'pay.otherMessage': 'Contatta {merchant}.',
  'pay.footerWaiting': 'Tieni aperta questa pagina finché non indica «Pagato»: si aggiorna da sola.',
  'pay.footerProcessing':
    'Non devi inviare altro. Puoi tenere aperta questa pagina per vedere il pagamento confermato, oppure chiuderla.',
  'pay.footerSettled': 'Questo pagamento è completato: puoi chiudere questa pagina.',
  'pay.footerEnded': 'Questa richiesta è chiusa: da ora in poi non è previsto nulla inviato al suo indirizzo.',
  'pay.footerReview': 'Conserva l’hash della transazione che hai inviato: l’esercente potrebbe chiedertelo.',
  'pay.footerOther': 'Contatta l’esercente per questo pagamento.',
  'pay.notFoundTitle': 'Pagina di pagamento non trovata',
  'pay.notFoundMessage':
    'Questo link di pagamento non è valido o è stato digitato male. Controlla il link ricevuto o chiedine uno nuovo all’esercente.',
  'pay.tooManyTitle': 'Troppe richieste',
  'pay.tooManyMessage': 'Attendi {seconds, plural, one {# secondo} other {# secondi}}, poi ricarica questa pagina.',
} satisfies Messages<typeof en>;
