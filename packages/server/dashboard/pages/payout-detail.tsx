import { Amount, ErrorNote, Loading, time, useAsync } from '../../ui-kit/ui.js';
import { cp } from '../api.js';
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
        <Link to="/payouts">← Payouts &amp; refunds</Link>
      </p>
      {p === undefined ? (
        <>
          <h1>{id.startsWith('po_') ? 'Payout' : 'Payout or refund'}</h1>
          {payout.error ? <ErrorNote error={payout.error} /> : <Loading what="the payout" />}
        </>
      ) : (
        <>
          <h1>
            {p.refundOf ? 'Refund' : 'Payout'} <Status status={p.status} />
          </h1>
          <dl class="facts" data-testid="payout-facts">
            <dt>Id</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
            <dt>Status</dt>
            <dd data-testid="payout-status">
              {p.status}
              {p.reason ? <span class="muted"> ({p.reason})</span> : null}
            </dd>
            <dt>Amount</dt>
            <dd>
              <Amount value={p.amount} unit={p.asset} />
            </dd>
            <dt>Network fee</dt>
            <dd>
              <Amount value={p.networkFee} unit={p.asset} />
            </dd>
            <dt>Total</dt>
            <dd>
              <Amount value={p.total} unit={p.asset} />
            </dd>
            <dt>From</dt>
            <dd>
              {p.asset} on {p.chain} ({p.network}) <code>{p.walletId}</code>
            </dd>
            <dt>To</dt>
            <dd>
              <code>{p.destination}</code>
            </dd>
            <dt>Transaction</dt>
            <dd>{p.txHash ? <code>{p.txHash}</code> : '—'}</dd>
            <dt>Reference</dt>
            <dd>{p.reference ?? '—'}</dd>
            {p.refundOf ? (
              <>
                <dt>Refund of</dt>
                <dd>
                  <Link to={`/checkouts/${encodeURIComponent(p.refundOf)}`}>{p.refundOf}</Link>
                </dd>
              </>
            ) : null}
            <dt>Created</dt>
            <dd>{time(p.createdAt)}</dd>
          </dl>
          <h2>Timeline</h2>
          <ol class="timeline">
            {p.timeline.map((t) => (
              <li key={`${t.at}-${t.status}`}>
                {time(t.at)} <Status status={t.status} /> <span class="muted">by {t.by}</span>
                {t.reason ? <span class="muted"> · {t.reason}</span> : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
