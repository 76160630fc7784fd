import { useState } from 'preact/hooks';
import { admin, qs, type Row } from '../api.js';
import { Amount, ErrorNote, Field, JsonBlock, link, Loading, Pager, Table, time, useAsync, usePager } from '../ui.js';
import { useDetail, useFilters } from './list-kit.js';

/** Search and lists beside checkouts: payments (transfers), ledger postings and the audit log, each row to its full record. */

export function PaymentList() {
  const f = useFilters({ matched: '', chain: '', checkoutId: '' });
  const pager = usePager();
  const list = useAsync(() => admin<{ items: Row[]; nextCursor: string | null }>(`/transfers${qs({ ...f.applied, cursor: pager.cursor })}`), [f.applied, pager.cursor]);
  const detail = useDetail();
  return (
    <section aria-labelledby="payments-h">
      <h1 id="payments-h">Payments (transfers)</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          pager.reset();
          f.apply();
        }}
      >
        <Field label="Matched">
          <select value={f.draft.matched} onChange={(e) => f.set('matched', e.currentTarget.value)}>
            <option value="">any</option>
            <option value="true">matched to a checkout</option>
            <option value="false">unmatched</option>
          </select>
        </Field>
        <Field label="Chain">
          <input value={f.draft.chain} onInput={(e) => f.set('chain', e.currentTarget.value)} />
        </Field>
        <Field label="Checkout id">
          <input value={f.draft.checkoutId} onInput={(e) => f.set('checkoutId', e.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="payments" />
      ) : (
        <>
          <Table
            caption="Payments"
            rows={list.data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Transfer', render: (r) => r.id },
              { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} unit={r.asset} /> },
              { label: 'Chain', render: (r) => r.chain },
              { label: 'Checkout', render: (r) => (r.checkoutId ? <a href={link(`/checkouts/${r.checkoutId}`)}>{r.checkoutId}</a> : 'unmatched') },
              { label: 'Exception', render: (r) => r.exception ?? '—' },
              { label: 'Detected', render: (r) => time(r.detectedAt) },
              detail.column('transfer'),
            ]}
            empty="No payments match."
          />
          {detail.block(list.data.items)}
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
        </>
      )}
    </section>
  );
}

export function PostingList() {
  const wallets = useAsync(() => admin<{ items: Row[] }>('/wallets?limit=200'), []);
  const [walletId, setWalletId] = useState('');
  const pager = usePager();
  const detail = useDetail();
  const postings = useAsync(() => (walletId === '' ? Promise.resolve(undefined) : admin<{ items: Row[]; nextCursor: string | null }>(`/wallets/${walletId}/postings${qs({ cursor: pager.cursor })}`)), [walletId, pager.cursor]);
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
      ) : postings.data === undefined ? (
        <Loading what="postings" />
      ) : (
        <>
          <Table
            caption="Postings"
            rows={postings.data.items}
            rowKey={(r) => r.id}
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
          />
          {detail.block(postings.data.items)}
          <Pager pager={pager} nextCursor={postings.data.nextCursor} />
        </>
      )}
    </section>
  );
}

export function AuditList() {
  const f = useFilters({ objectType: '', objectId: '', operator: '', action: '', since: '' });
  const pager = usePager();
  const [open, setOpen] = useState<string | null>(null);
  const list = useAsync(() => admin<{ items: Row[]; nextCursor: string | null }>(`/audit${qs({ ...f.applied, since: f.applied.since && `${f.applied.since}T00:00:00Z`, cursor: pager.cursor })}`), [f.applied, pager.cursor]);
  return (
    <section aria-labelledby="audit-h">
      <h1 id="audit-h">Audit log</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          pager.reset();
          f.apply();
        }}
      >
        {(['objectType', 'objectId', 'operator', 'action'] as const).map((k) => (
          <Field label={{ objectType: 'Object type', objectId: 'Object id', operator: 'Operator', action: 'Action' }[k]} key={k}>
            <input value={f.draft[k]} onInput={(e) => f.set(k, e.currentTarget.value)} />
          </Field>
        ))}
        <Field label="Since">
          <input type="date" value={f.draft.since} onInput={(e) => f.set('since', e.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="audit entries" />
      ) : (
        <>
          <Table
            caption="Audit entries"
            rows={list.data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: 'When', render: (r) => time(r.at) },
              { label: 'Operator', render: (r) => r.operator },
              { label: 'Action', render: (r) => r.action },
              { label: 'Object', render: (r) => (r.objectType === 'checkout' ? <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a> : `${r.objectType} ${r.objectId}`) },
              {
                label: 'Detail',
                render: (r) => (
                  <button type="button" class="link" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
                    {open === r.id ? 'Hide' : 'Show'} before / after
                  </button>
                ),
              },
            ]}
            empty="No entries match."
          />
          {open !== null ? <JsonBlock value={list.data.items.find((r) => r.id === open)} /> : null}
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
        </>
      )}
    </section>
  );
}
