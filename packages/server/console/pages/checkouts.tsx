import { CHECKOUT_STATUS_VALUES } from '@hostpay/protocol/checkout-status';
import { admin, qs } from '../api.js';
import type { Checkout, Page } from '../views.js';
import { Amount, ErrorNote, Field, link, Loading, Table, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { AuditTrail } from './audit.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';

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
      <h1 id="checkouts-h">Checkouts</h1>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="merchantId" label="Merchant id" />
        <Field label="Status">
          <select value={f.draft.status} onChange={(e) => f.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? 'any' : s}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={f} name="orderId" label="Order id" />
        <FilterInput filters={f} name="createdFrom" label="Created from" date />
        <FilterInput filters={f} name="createdTo" label="Created to" date />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="checkouts"
        pager={pager}
        caption="Checkouts"
        columns={[
          { label: 'Checkout', render: (r) => <a href={link(`/checkouts/${r.id}`)}>{r.id}</a> },
          { label: 'Merchant', render: (r) => <a href={link(`/merchants/${r.merchant.id}`)}>{r.merchant.name}</a> },
          { label: 'Status', render: (r) => <span class={`status s-${r.status}`}>{r.status}</span> },
          { label: 'Amount asked', num: true, render: (r) => <Amount value={r.amount} unit={r.currency} /> },
          { label: 'Received', num: true, render: (r) => <Received c={r} /> },
          { label: 'Order', render: (r) => r.orderId ?? '—' },
          { label: 'Created', render: (r) => time(r.createdAt) },
        ]}
        empty="No checkouts match."
      />
    </section>
  );
}

export function CheckoutDetail({ id }: { id: string }) {
  const c = useAsync(() => admin<Checkout>(`/checkouts/${id}`), [id]);
  return (
    <section aria-labelledby="checkout-h">
      <h1 id="checkout-h">Checkout {id}</h1>
      <ErrorNote error={c.error} />
      {c.data === undefined ? <Loading what="the checkout" /> : <CheckoutFacts c={c.data} />}
      <AuditTrail objectId={id} />
    </section>
  );
}

/** What a checkout received, per asset and chain (live payments), exact; "nothing" when none. */
export function Received({ c }: { c: Checkout }) {
  const sums = new Map<string, string[]>();
  for (const p of c.payments) {
    if (p.retracted) continue;
    const key = `${p.asset} on ${p.chain}`;
    sums.set(key, [...(sums.get(key) ?? []), p.amount]);
  }
  if (sums.size === 0) return <>nothing</>;
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
        <dt>Merchant</dt>
        <dd data-testid="checkout-merchant">
          {c.merchant ? <a href={link(`/merchants/${c.merchant.id}`)}>{c.merchant.name}</a> : '—'}
        </dd>
        <dt>Status</dt>
        <dd>
          <span class={`status s-${c.status}`}>{c.status}</span> {c.reason ? `(${c.reason})` : ''}
        </dd>
        <dt>Amount asked</dt>
        <dd>
          <Amount value={c.amount} unit={c.currency} />
        </dd>
        <dt>Received</dt>
        <dd data-testid="checkout-received">
          <Received c={c} />
        </dd>
        <dt>Fee (charged to the merchant)</dt>
        <dd>
          <Amount value={c.fee?.fee} unit={c.fee?.currency} />
        </dd>
        <dt>Order id</dt>
        <dd>{c.orderId ?? '—'}</dd>
        <dt>Description</dt>
        <dd>{c.description ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{time(c.createdAt)}</dd>
        <dt>Expires</dt>
        <dd>{time(c.expiresAt)}</dd>
      </dl>
      <h2>Payment options</h2>
      <Table
        caption="Payment options"
        rows={c.paymentOptions}
        rowKey={(o) => `${o.asset}-${o.chain}`}
        columns={[
          { label: 'Asset', render: (o) => `${o.asset} on ${o.chain}` },
          { label: 'Address', render: (o) => <code>{o.address}</code> },
          { label: 'Due', num: true, render: (o) => <Amount value={o.amountDue} unit={o.asset} /> },
          {
            label: 'Rate',
            num: true,
            render: (o) => (
              <span title={o.rateSource === null ? undefined : `${o.rateSource}, ${o.rateAt ?? ''}`}>
                <Amount value={o.rate} />
                {o.rateSpreadPercent === null ? '' : ` (+${o.rateSpreadPercent} %)`}
              </span>
            ),
          },
          { label: 'Received', num: true, render: (o) => <Amount value={o.received} unit={o.asset} /> },
        ]}
      />
      <h2>Payments</h2>
      <Table
        caption="Payments received"
        rows={c.payments}
        rowKey={(p) => p.id}
        columns={[
          { label: 'Transfer', render: (p) => p.id },
          { label: 'Transaction', render: (p) => <code class="clip">{p.txHash}</code> },
          { label: 'Amount', num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: 'Chain', render: (p) => p.chain },
          { label: 'Confirmations', num: true, render: (p) => p.confirmations },
          { label: 'Retracted', render: (p) => (p.retracted ? 'yes' : 'no') },
        ]}
        empty="No payments."
      />
      <h2>Timeline</h2>
      <ol class="timeline">
        {c.timeline.map((t, i) => (
          <li key={i}>
            {time(t.at)}: <strong>{t.status}</strong> {t.reason ? `(${t.reason})` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}
