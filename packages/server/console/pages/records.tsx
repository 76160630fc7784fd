import { useState } from 'preact/hooks';
import { admin, qs, type Row } from '../api.js';
import { Amount, ErrorNote, Field, link, time, useAsync, usePager } from '../ui.js';
import { FilterForm, FilterInput, PagedTable, type Page, useDetail, useFilters } from './list-kit.js';

/** Search and lists beside checkouts: payments (transfers), ledger postings and the audit log, each row to its full record. */

export function PaymentList() {
  const f = useFilters({ matched: '', chain: '', checkoutId: '' });
  const pager = usePager();
  const list = useAsync(
    () => admin<Page>(`/transfers${qs({ ...f.applied, cursor: pager.cursor })}`),
    [f.applied, pager.cursor],
  );
  const detail = useDetail();
  return (
    <section aria-labelledby="payments-h">
      <h1 id="payments-h">Payments (transfers)</h1>
      <FilterForm filters={f} pager={pager}>
        <Field label="Matched">
          <select value={f.draft.matched} onChange={(e) => f.set('matched', e.currentTarget.value)}>
            <option value="">any</option>
            <option value="true">matched to a checkout</option>
            <option value="false">unmatched</option>
          </select>
        </Field>
        <FilterInput filters={f} name="chain" label="Chain" />
        <FilterInput filters={f} name="checkoutId" label="Checkout id" />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="payments"
        pager={pager}
        caption="Payments"
        columns={[
          { label: 'Transfer', render: (r) => r.id },
          { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} unit={r.asset} /> },
          { label: 'Chain', render: (r) => r.chain },
          {
            label: 'Checkout',
            render: (r) =>
              r.checkoutId ? <a href={link(`/checkouts/${r.checkoutId}`)}>{r.checkoutId}</a> : 'unmatched',
          },
          { label: 'Exception', render: (r) => r.exception ?? '—' },
          { label: 'Detected', render: (r) => time(r.detectedAt) },
          detail.column('transfer'),
        ]}
        empty="No payments match."
        detail={detail}
      />
    </section>
  );
}

export function PostingList() {
  const wallets = useAsync(() => admin<{ items: Row[] }>('/wallets?limit=200'), []);
  const [walletId, setWalletId] = useState('');
  const pager = usePager();
  const detail = useDetail();
  const postings = useAsync(
    () =>
      walletId === ''
        ? Promise.resolve(undefined)
        : admin<Page>(`/wallets/${walletId}/postings${qs({ cursor: pager.cursor })}`),
    [walletId, pager.cursor],
  );
  return (
    <section aria-labelledby="postings-h">
      <h1 id="postings-h">Ledger postings</h1>
      <ErrorNote error={wallets.error} />
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Wallet">
          <select
            value={walletId}
            onChange={(e) => {
              pager.reset();
              setWalletId(e.currentTarget.value);
            }}
          >
            <option value="">choose a wallet</option>
            {(wallets.data?.items ?? []).map((w) => (
              <option value={w.id} key={w.id}>
                {w.asset} on {w.chain} · {w.merchantId} · {w.id}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorNote error={postings.error} />
      {walletId === '' ? (
        <p class="muted">Choose a wallet to see its postings, oldest first.</p>
      ) : (
        <PagedTable
          page={postings.data}
          what="postings"
          pager={pager}
          caption="Postings"
          columns={[
            { label: 'Posting', render: (r) => r.id },
            { label: 'Kind', render: (r) => r.kind },
            { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} /> },
            { label: 'Balance after', num: true, render: (r) => <Amount value={r.amountAfter} /> },
            { label: 'Frozen after', num: true, render: (r) => <Amount value={r.freezeAmountAfter} /> },
            { label: 'At', render: (r) => time(r.createdAt) },
            detail.column('posting'),
          ]}
          empty="No postings."
          detail={detail}
        />
      )}
    </section>
  );
}

export function AuditList() {
  const f = useFilters({ objectType: '', objectId: '', operator: '', action: '', since: '' });
  const pager = usePager();
  const detail = useDetail();
  const list = useAsync(
    () =>
      admin<Page>(
        `/audit${qs({ ...f.applied, since: f.applied.since && `${f.applied.since}T00:00:00Z`, cursor: pager.cursor })}`,
      ),
    [f.applied, pager.cursor],
  );
  return (
    <section aria-labelledby="audit-h">
      <h1 id="audit-h">Audit log</h1>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="objectType" label="Object type" />
        <FilterInput filters={f} name="objectId" label="Object id" />
        <FilterInput filters={f} name="operator" label="Operator" />
        <FilterInput filters={f} name="action" label="Action" />
        <FilterInput filters={f} name="since" label="Since" date />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="audit entries"
        pager={pager}
        caption="Audit entries"
        columns={[
          { label: 'When', render: (r) => time(r.at) },
          { label: 'Operator', render: (r) => r.operator },
          { label: 'Action', render: (r) => r.action },
          {
            label: 'Object',
            render: (r) =>
              r.objectType === 'checkout' ? (
                <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a>
              ) : (
                `${r.objectType} ${r.objectId}`
              ),
          },
          detail.column('audit entry', 'before / after'),
        ]}
        empty="No entries match."
        detail={detail}
      />
    </section>
  );
}
