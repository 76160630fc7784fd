import { Amount, ErrorNote, Loading, time, useAsync } from '../../ui-kit/ui.js';
import { cp } from '../api.js';
import { t } from '../messages.js';
import { Link } from '../router.js';
import type { Payout } from '../views.js';
import { Status } from './checkouts.js';

/** One payout or refund in full (where a search hit leads): its money, destination, transaction and timeline. */
export function PayoutDetail({ id }: { id: string }) {
  const payout = useAsync(() => cp<Payout>(`/payouts/${encodeURIComponent(id)}`), [id]);
  const p = payout.data;
  return (
    <>
      <p>
        <Link to="/payouts">{t('payout-detail.back')}</Link>
      </p>
      {p === undefined ? (
        <>
          <h1>{id.startsWith('po_') ? t('payout-detail.payout') : t('payout-detail.payoutOrRefund')}</h1>
          {payout.error ? <ErrorNote error={payout.error} /> : <Loading what={t('payout-detail.loading')} />}
        </>
      ) : (
        <>
          <h1>
            {p.refundOf ? t('payout-detail.refund') : t('payout-detail.payout')} <Status status={p.status} />
          </h1>
          <dl class="facts" data-testid="payout-facts">
            <dt>{t('payout-detail.id')}</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
            <dt>{t('payout-detail.status')}</dt>
            <dd data-testid="payout-status">
              {p.status}
              {p.reason ? <span class="muted"> ({p.reason})</span> : null}
            </dd>
            <dt>{t('payout-detail.amount')}</dt>
            <dd>
              <Amount value={p.amount} unit={p.asset} />
            </dd>
            <dt>{t('payout-detail.networkFee')}</dt>
            <dd>
              <Amount value={p.networkFee} unit={p.asset} />
            </dd>
            <dt>{t('payout-detail.total')}</dt>
            <dd>
              <Amount value={p.total} unit={p.asset} />
            </dd>
            <dt>{t('payout-detail.from')}</dt>
            <dd>
              {t('payout-detail.wallet', { asset: p.asset, chain: p.chain, network: p.network })}{' '}
              <code>{p.walletId}</code>
            </dd>
            <dt>{t('payout-detail.to')}</dt>
            <dd>
              <code>{p.destination}</code>
            </dd>
            <dt>{t('payout-detail.transaction')}</dt>
            <dd>{p.txHash ? <code>{p.txHash}</code> : '—'}</dd>
            <dt>{t('payout-detail.reference')}</dt>
            <dd>{p.reference ?? '—'}</dd>
            {p.refundOf ? (
              <>
                <dt>{t('payout-detail.refundOf')}</dt>
                <dd>
                  <Link to={`/checkouts/${encodeURIComponent(p.refundOf)}`}>{p.refundOf}</Link>
                </dd>
              </>
            ) : null}
            <dt>{t('payout-detail.created')}</dt>
            <dd>{time(p.createdAt)}</dd>
          </dl>
          <h2>{t('payout-detail.timeline')}</h2>
          <ol class="timeline">
            {p.timeline.map((step) => (
              <li key={`${step.at}-${step.status}`}>
                {time(step.at)} <Status status={step.status} />{' '}
                <span class="muted">{t('payout-detail.by', { by: step.by })}</span>
                {step.reason ? <span class="muted"> · {step.reason}</span> : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
