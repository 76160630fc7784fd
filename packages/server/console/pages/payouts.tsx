import { admin, qs } from '../api.js';
import type { Page, Payout } from '../views.js';
import { Amount, ErrorNote, Field, link, Loading, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { AuditTrail } from './audit.js';
import { Decide } from './payout-approvals.js';
import { PayoutHotWallet } from './payout-hot-wallet.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';

/** Payouts: the filterable list and one payout's detail (the approval queue: payout-approvals.tsx). */

const STATUSES: ('' | Payout['status'])[] = [
  '',
  'pending_approval',
  'approved',
  'sent',
  'completed',
  'rejected',
  'canceled',
  'failed',
];

const Status = ({ p }: { p: Pick<Payout, 'status' | 'reason'> }) => (
  <>
    <span class={`status s-${p.status}`}>{p.status}</span> {p.reason ? `(${p.reason})` : ''}
  </>
);

export function PayoutList() {
  const f = useFilters({ status: '', merchantId: '', chain: '' });
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Payout>>(`/payouts${qs({ ...f.applied, cursor: pager.cursor })}`),
    [f.applied, pager.cursor],
  );
  return (
    <section aria-labelledby="payouts-h">
      <h1 id="payouts-h">Payouts</h1>
      <FilterForm filters={f} pager={pager}>
        <Field label="Status">
          <select value={f.draft.status} onChange={(e) => f.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? 'any' : s}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={f} name="merchantId" label="Merchant id" />
        <FilterInput filters={f} name="chain" label="Chain" />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="payouts"
        pager={pager}
        caption="Payouts"
        columns={[
          { label: 'Payout', render: (r) => <a href={link(`/payouts/${r.id}`)}>{r.id}</a> },
          { label: 'Merchant', render: (r) => <a href={link(`/merchants/${r.merchant.id}`)}>{r.merchant.name}</a> },
          { label: 'Status', render: (r) => <Status p={r} /> },
          { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} unit={r.asset} /> },
          { label: 'Network fee', num: true, render: (r) => <Amount value={r.networkFee} unit={r.asset} /> },
          { label: 'Chain', render: (r) => r.chain },
          { label: 'Destination', render: (r) => <code class="clip">{r.destination}</code> },
          { label: 'Refund of', render: (r) => r.refundOf ?? '—' },
          { label: 'Created', render: (r) => time(r.createdAt) },
        ]}
        empty="No payouts match."
      />
    </section>
  );
}

export function PayoutDetail({ id }: { id: string }) {
  const p = useAsync(() => admin<Payout>(`/payouts/${id}`), [id]);
  return (
    <section aria-labelledby="payout-h">
      <h1 id="payout-h">Payout {id}</h1>
      <ErrorNote error={p.error} />
      {p.data === undefined ? <Loading what="the payout" /> : <PayoutFacts p={p.data} />}
      {p.data?.status === 'pending_approval' ? <Decide p={p.data} /> : null}
      {p.data === undefined ? null : <PayoutHotWallet id={id} />}
      <AuditTrail objectId={id} />
    </section>
  );
}

function PayoutFacts({ p }: { p: Payout }) {
  return (
    <>
      <dl class="facts">
        <dt>Merchant</dt>
        <dd data-testid="payout-merchant">
          <a href={link(`/merchants/${p.merchant.id}`)}>{p.merchant.name}</a> (<code>{p.merchant.id}</code>)
        </dd>
        <dt>Status</dt>
        <dd>
          <Status p={p} />
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
          <Amount value={p.total} unit={p.asset} /> from wallet <code>{p.walletId}</code>
        </dd>
        <dt>Chain</dt>
        <dd>
          {p.chain} ({p.network})
        </dd>
        <dt>Destination</dt>
        <dd>
          <code>{p.destination}</code> {p.destinationId ? `(${p.destinationId})` : '(given by the payer)'}
        </dd>
        <dt>Reference</dt>
        <dd>{p.reference ?? '—'}</dd>
        <dt>Refund of</dt>
        <dd>{p.refundOf ? <a href={link(`/checkouts/${p.refundOf}`)}>{p.refundOf}</a> : '—'}</dd>
        <dt>Transaction</dt>
        <dd>
          {p.txHash ? (
            <>
              <code class="clip">{p.txHash}</code> ({p.confirmations} confirmations)
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Created</dt>
        <dd>{time(p.createdAt)}</dd>
      </dl>
      <h2>Timeline</h2>
      <ol class="timeline" data-testid="payout-timeline">
        {p.timeline.map((t, i) => (
          <li key={i}>
            {time(t.at)}: <strong>{t.status}</strong> {t.reason ? `(${t.reason})` : ''} by {t.by}
          </li>
        ))}
      </ol>
    </>
  );
}
