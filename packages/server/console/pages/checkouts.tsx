import { CHECKOUT_STATUS_VALUES } from '@hostpay/protocol/checkout-status';
import { admin, qs } from '../api.js';
import type { Checkout, Page } from '../views.js';
import { Amount, ErrorNote, Field, link, Loading, Table, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { AuditTrail } from './audit.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';
import { t } from '../messages.js';

/** Checkouts: the filterable list and one checkout's detail (what it asked, received and went through). */

const STATUSES = ['', ...CHECKOUT_STATUS_VALUES];

export function CheckoutList() {
  const f = useFilters({ merchantId: '', status: '', orderId: '', createdFrom: '', createdTo: '' });
  const pager = usePager();
  const list = useAsync(
    () =>
      admin<Page<Checkout>>(
        `/checkouts${qs({ ...f.applied, createdFrom: f.applied.createdFrom && `${f.applied.createdFrom}T00:00:00Z`, createdTo: f.applied.createdTo && `${f.applied.createdTo}T23:59:59Z`, cursor: pager.cursor })}`,
      ),
    [f.applied, pager.cursor],
  );
  return (
    <section aria-labelledby="checkouts-h">
      <h1 id="checkouts-h">{t('checkouts.title')}</h1>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="merchantId" label={t('checkouts.merchantId')} />
        <Field label={t('checkouts.status')}>
          <select value={f.draft.status} onChange={(e) => f.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? t('checkouts.anyStatus') : s}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={f} name="orderId" label={t('checkouts.orderId')} />
        <FilterInput filters={f} name="createdFrom" label={t('checkouts.createdFrom')} date />
        <FilterInput filters={f} name="createdTo" label={t('checkouts.createdTo')} date />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what={t('checkouts.what')}
        pager={pager}
        caption={t('checkouts.title')}
        columns={[
          { label: t('checkouts.checkout'), render: (r) => <a href={link(`/checkouts/${r.id}`)}>{r.id}</a> },
          {
            label: t('checkouts.merchant'),
            render: (r) => <a href={link(`/merchants/${r.merchant.id}`)}>{r.merchant.name}</a>,
          },
          { label: t('checkouts.status'), render: (r) => <span class={`status s-${r.status}`}>{r.status}</span> },
          {
            label: t('checkouts.amountAsked'),
            num: true,
            render: (r) => <Amount value={r.amount} unit={r.currency} />,
          },
          { label: t('checkouts.received'), num: true, render: (r) => <Received c={r} /> },
          { label: t('checkouts.order'), render: (r) => r.orderId ?? '—' },
          { label: t('checkouts.created'), render: (r) => time(r.createdAt) },
        ]}
        empty={t('checkouts.noneMatch')}
      />
    </section>
  );
}

export function CheckoutDetail({ id }: { id: string }) {
  const c = useAsync(() => admin<Checkout>(`/checkouts/${id}`), [id]);
  return (
    <section aria-labelledby="checkout-h">
      <h1 id="checkout-h">{t('checkouts.detailTitle', { id })}</h1>
      <ErrorNote error={c.error} />
      {c.data === undefined ? <Loading what={t('checkouts.theCheckout')} /> : <CheckoutFacts c={c.data} />}
      <AuditTrail objectId={id} />
    </section>
  );
}

/** What a checkout received, per asset and chain (live payments), exact; "nothing" when none. */
export function Received({ c }: { c: Checkout }) {
  const sums = new Map<string, string[]>();
  for (const p of c.payments) {
    if (p.retracted) continue;
    const key = t('checkouts.assetOnChain', { asset: p.asset, chain: p.chain });
    sums.set(key, [...(sums.get(key) ?? []), p.amount]);
  }
  if (sums.size === 0) return <>{t('checkouts.nothing')}</>;
  return (
    <>
      {[...sums].map(([key, amounts], i) => (
        <span key={key}>
          {i > 0 ? ', ' : ''}
          <Amount value={addDecimals(amounts)} /> {key}
        </span>
      ))}
    </>
  );
}

/** Exact sum of decimal texts (digits aligned as integers: no float). */
export function addDecimals(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => (v.split('.')[1] ?? '').length));
  const total = values.reduce((sum, v) => {
    const [int = '0', frac = ''] = v.split('.');
    return sum + BigInt(int + frac.padEnd(scale, '0'));
  }, 0n);
  const text = total.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

export function CheckoutFacts({ c }: { c: Checkout }) {
  return (
    <>
      <dl class="facts">
        <dt>{t('checkouts.merchant')}</dt>
        <dd data-testid="checkout-merchant">
          {c.merchant ? <a href={link(`/merchants/${c.merchant.id}`)}>{c.merchant.name}</a> : '—'}
        </dd>
        <dt>{t('checkouts.status')}</dt>
        <dd>
          <span class={`status s-${c.status}`}>{c.status}</span> {c.reason ? `(${c.reason})` : ''}
        </dd>
        <dt>{t('checkouts.amountAsked')}</dt>
        <dd>
          <Amount value={c.amount} unit={c.currency} />
        </dd>
        <dt>{t('checkouts.received')}</dt>
        <dd data-testid="checkout-received">
          <Received c={c} />
        </dd>
        <dt>{t('checkouts.fee')}</dt>
        <dd>
          <Amount value={c.fee?.fee} unit={c.fee?.currency} />
        </dd>
        <dt>{t('checkouts.orderId')}</dt>
        <dd>{c.orderId ?? '—'}</dd>
        <dt>{t('checkouts.description')}</dt>
        <dd>{c.description ?? '—'}</dd>
        <dt>{t('checkouts.created')}</dt>
        <dd>{time(c.createdAt)}</dd>
        <dt>{t('checkouts.expires')}</dt>
        <dd>{time(c.expiresAt)}</dd>
      </dl>
      <h2>{t('checkouts.paymentOptions')}</h2>
      <Table
        caption={t('checkouts.paymentOptions')}
        rows={c.paymentOptions}
        rowKey={(o) => `${o.asset}-${o.chain}`}
        columns={[
          {
            label: t('checkouts.asset'),
            render: (o) => t('checkouts.assetOnChain', { asset: o.asset, chain: o.chain }),
          },
          { label: t('checkouts.address'), render: (o) => <code>{o.address}</code> },
          { label: t('checkouts.due'), num: true, render: (o) => <Amount value={o.amountDue} unit={o.asset} /> },
          {
            label: t('checkouts.rate'),
            num: true,
            render: (o) => (
              <span title={o.rateSource === null ? undefined : `${o.rateSource}, ${o.rateAt ?? ''}`}>
                <Amount value={o.rate} />
                {o.rateSpreadPercent === null ? '' : ` (+${o.rateSpreadPercent} %)`}
              </span>
            ),
          },
          { label: t('checkouts.received'), num: true, render: (o) => <Amount value={o.received} unit={o.asset} /> },
        ]}
      />
      <h2>{t('checkouts.payments')}</h2>
      <Table
        caption={t('checkouts.paymentsReceived')}
        rows={c.payments}
        rowKey={(p) => p.id}
        columns={[
          { label: t('checkouts.transfer'), render: (p) => p.id },
          { label: t('checkouts.transaction'), render: (p) => <code class="clip">{p.txHash}</code> },
          { label: t('checkouts.amount'), num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: t('checkouts.chain'), render: (p) => p.chain },
          { label: t('checkouts.confirmations'), num: true, render: (p) => p.confirmations },
          { label: t('checkouts.retracted'), render: (p) => (p.retracted ? t('checkouts.yes') : t('checkouts.no')) },
        ]}
        empty={t('checkouts.noPayments')}
      />
      <h2>{t('checkouts.timeline')}</h2>
      <ol class="timeline">
        {c.timeline.map((step, i) => (
          <li key={i}>
            {time(step.at)}: <strong>{step.status}</strong> {step.reason ? `(${step.reason})` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}
