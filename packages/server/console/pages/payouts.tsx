import { admin, qs } from '../api.js';
import type { Page, Payout } from '../views.js';
import { Amount, ErrorNote, Field, link, Loading, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { AuditTrail } from './audit.js';
import { Decide } from './payout-approvals.js';
import { PayoutHotWallet } from './payout-hot-wallet.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';
import { t } from '../messages.js';

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
      <h1 id="payouts-h">{t('payouts.title')}</h1>
      <FilterForm filters={f} pager={pager}>
        <Field label={t('payouts.status')}>
          <select value={f.draft.status} onChange={(e) => f.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? t('payouts.anyStatus') : s}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={f} name="merchantId" label={t('payouts.merchantId')} />
        <FilterInput filters={f} name="chain" label={t('payouts.chain')} />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what={t('payouts.what')}
        pager={pager}
        caption={t('payouts.title')}
        columns={[
          { label: t('payouts.payout'), render: (r) => <a href={link(`/payouts/${r.id}`)}>{r.id}</a> },
          {
            label: t('payouts.merchant'),
            render: (r) => <a href={link(`/merchants/${r.merchant.id}`)}>{r.merchant.name}</a>,
          },
          { label: t('payouts.status'), render: (r) => <Status p={r} /> },
          { label: t('payouts.amount'), num: true, render: (r) => <Amount value={r.amount} unit={r.asset} /> },
          { label: t('payouts.networkFee'), num: true, render: (r) => <Amount value={r.networkFee} unit={r.asset} /> },
          { label: t('payouts.chain'), render: (r) => r.chain },
          { label: t('payouts.destination'), render: (r) => <code class="clip">{r.destination}</code> },
          { label: t('payouts.refundOf'), render: (r) => r.refundOf ?? '—' },
          { label: t('payouts.created'), render: (r) => time(r.createdAt) },
        ]}
        empty={t('payouts.noneMatch')}
      />
    </section>
  );
}

export function PayoutDetail({ id }: { id: string }) {
  const p = useAsync(() => admin<Payout>(`/payouts/${id}`), [id]);
  const waiting = p.data?.status === 'pending_approval' ? p.data : undefined;
  return (
    <section aria-labelledby="payout-h">
      <h1 id="payout-h">{t('payouts.detailTitle', { id })}</h1>
      <ErrorNote error={p.error} />
      {p.data === undefined ? <Loading what={t('payouts.thePayout')} /> : <PayoutFacts p={p.data} />}
      {waiting ? <Decide p={waiting} /> : null}
      {p.data === undefined ? null : <PayoutHotWallet id={id} />}
      <AuditTrail objectId={id} />
    </section>
  );
}

function PayoutFacts({ p }: { p: Payout }) {
  return (
    <>
      <dl class="facts">
        <dt>{t('payouts.merchant')}</dt>
        <dd data-testid="payout-merchant">
          <a href={link(`/merchants/${p.merchant.id}`)}>{p.merchant.name}</a> (<code>{p.merchant.id}</code>)
        </dd>
        <dt>{t('payouts.status')}</dt>
        <dd>
          <Status p={p} />
        </dd>
        <dt>{t('payouts.amount')}</dt>
        <dd>
          <Amount value={p.amount} unit={p.asset} />
        </dd>
        <dt>{t('payouts.networkFee')}</dt>
        <dd>
          <Amount value={p.networkFee} unit={p.asset} />
        </dd>
        <dt>{t('payouts.total')}</dt>
        <dd>
          <Amount value={p.total} unit={p.asset} />
          {t('payouts.fromWallet')}
          <code>{p.walletId}</code>
        </dd>
        <dt>{t('payouts.chain')}</dt>
        <dd>
          {p.chain} ({p.network})
        </dd>
        <dt>{t('payouts.destination')}</dt>
        <dd>
          <code>{p.destination}</code> {p.destinationId ? `(${p.destinationId})` : t('payouts.givenByPayer')}
        </dd>
        <dt>{t('payouts.reference')}</dt>
        <dd>{p.reference ?? '—'}</dd>
        <dt>{t('payouts.refundOf')}</dt>
        <dd>{p.refundOf ? <a href={link(`/checkouts/${p.refundOf}`)}>{p.refundOf}</a> : '—'}</dd>
        <dt>{t('payouts.transaction')}</dt>
        <dd>
          {p.txHash ? (
            <>
              <code class="clip">{p.txHash}</code>
              {t('payouts.confirmations', { n: p.confirmations })}
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('payouts.created')}</dt>
        <dd>{time(p.createdAt)}</dd>
      </dl>
      <h2>{t('payouts.timeline')}</h2>
      <ol class="timeline" data-testid="payout-timeline">
        {p.timeline.map((step, i) => (
          <li key={i}>
            {time(step.at)}: <strong>{step.status}</strong> {step.reason ? `(${step.reason})` : ''}
            {t('payouts.by', { by: step.by })}
          </li>
        ))}
      </ol>
    </>
  );
}
