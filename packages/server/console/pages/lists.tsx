import { useState } from 'preact/hooks';
import { admin, qs, type Row } from '../api.js';
import { Amount, ErrorNote, Field, JsonBlock, link, Loading, Pager, Table, time, useAsync, usePager } from '../ui.js';

/** Search and lists: checkouts, payments (transfers), postings and audit entries, each row to its detail. */

/** A row's full record from the API, opened below the table (exact numbers as their text). */
function useDetail() {
  const [open, setOpen] = useState<string | null>(null);
  const column = (what: string) => ({
    label: 'Detail',
    render: (r: Row) => (
      <button type="button" class="link" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
        {open === r.id ? 'Hide' : 'Show'} <span class="sr-only">{what} {r.id}</span>
      </button>
    ),
  });
  const block = (rows: Row[]) => {
    const row = rows.find((r) => r.id === open);
    return row === undefined ? null : <JsonBlock value={row} />;
  };
  return { column, block };
}

const STATUSES = ['', 'open', 'underpaid', 'processing', 'settled', 'expired', 'canceled', 'needs_review', 'invalid'];

function useFilters<T extends Record<string, string>>(initial: T) {
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  return { draft, applied, set: (k: keyof T, v: string) => setDraft({ ...draft, [k]: v }), apply: () => setApplied(draft) };
}

export function CheckoutList() {
  const f = useFilters({ merchantId: '', status: '', orderId: '', createdFrom: '', createdTo: '' });
  const pager = usePager();
  const list = useAsync(() => admin<{ items: Row[]; nextCursor: string | null }>(`/checkouts${qs({ ...f.applied, createdFrom: f.applied.createdFrom && `${f.applied.createdFrom}T00:00:00Z`, createdTo: f.applied.createdTo && `${f.applied.createdTo}T23:59:59Z`, cursor: pager.cursor })}`), [f.applied, pager.cursor]);
  return (
    <section aria-labelledby="checkouts-h">
      <h1 id="checkouts-h">Checkouts</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          pager.reset();
          f.apply();
        }}
      >
        <Field label="Merchant id">
          <input value={f.draft.merchantId} onInput={(e) => f.set('merchantId', e.currentTarget.value)} />
        </Field>
        <Field label="Status">
          <select value={f.draft.status} onChange={(e) => f.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? 'any' : s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Order id">
          <input value={f.draft.orderId} onInput={(e) => f.set('orderId', e.currentTarget.value)} />
        </Field>
        <Field label="Created from">
          <input type="date" value={f.draft.createdFrom} onInput={(e) => f.set('createdFrom', e.currentTarget.value)} />
        </Field>
        <Field label="Created to">
          <input type="date" value={f.draft.createdTo} onInput={(e) => f.set('createdTo', e.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="checkouts" />
      ) : (
        <>
          <Table
            caption="Checkouts"
            rows={list.data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Checkout', render: (r) => <a href={link(`/checkouts/${r.id}`)}>{r.id}</a> },
              { label: 'Status', render: (r) => <span class={`status s-${r.status}`}>{r.status}</span> },
              { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} unit={r.currency} /> },
              { label: 'Order', render: (r) => r.orderId ?? '—' },
              { label: 'Created', render: (r) => time(r.createdAt) },
            ]}
            empty="No checkouts match."
          />
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
        </>
      )}
    </section>
  );
}

export function CheckoutDetail({ id }: { id: string }) {
  const c = useAsync(() => admin<Row>(`/checkouts/${id}`), [id]);
  return (
    <section aria-labelledby="checkout-h">
      <h1 id="checkout-h">Checkout {id}</h1>
      <ErrorNote error={c.error} />
      {c.data === undefined ? <Loading what="the checkout" /> : <CheckoutFacts c={c.data} />}
      <AuditTrail objectId={id} />
    </section>
  );
}

export function CheckoutFacts({ c }: { c: Row }) {
  return (
    <>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`status s-${c.status}`}>{c.status}</span> {c.reason ? `(${c.reason})` : ''}
        </dd>
        <dt>Amount</dt>
        <dd>
          <Amount value={c.amount} unit={c.currency} />
        </dd>
        <dt>Fee</dt>
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
        rows={c.paymentOptions ?? []}
        rowKey={(o: Row) => `${o.asset}-${o.chain}`}
        columns={[
          { label: 'Asset', render: (o: Row) => `${o.asset} on ${o.chain}` },
          { label: 'Address', render: (o: Row) => <code>{o.address}</code> },
          { label: 'Due', num: true, render: (o: Row) => <Amount value={o.amountDue} /> },
          { label: 'Received', num: true, render: (o: Row) => <Amount value={o.received} /> },
        ]}
      />
      <h2>Payments</h2>
      <Table
        caption="Payments received"
        rows={c.payments ?? []}
        rowKey={(p: Row) => p.id}
        columns={[
          { label: 'Transfer', render: (p: Row) => p.id },
          { label: 'Amount', num: true, render: (p: Row) => <Amount value={p.amount} unit={p.asset} /> },
          { label: 'Chain', render: (p: Row) => p.chain },
          { label: 'Confirmations', num: true, render: (p: Row) => p.confirmations },
          { label: 'Retracted', render: (p: Row) => (p.retracted ? 'yes' : 'no') },
        ]}
        empty="No payments."
      />
      <h2>Timeline</h2>
      <ol class="timeline">
        {(c.timeline ?? []).map((t: Row, i: number) => (
          <li key={i}>
            {time(t.at)}: <strong>{t.status}</strong> {t.reason ? `(${t.reason})` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}

/** The audit entries of one object (who did what, before and after). */
export function AuditTrail({ objectId }: { objectId: string }) {
  const entries = useAsync(() => admin<{ items: Row[] }>(`/audit${qs({ objectId, limit: '50' })}`), [objectId]);
  return (
    <>
      <h2>Audit trail</h2>
      <ErrorNote error={entries.error} />
      {entries.data === undefined ? (
        <Loading what="audit entries" />
      ) : (
        <Table
          caption={`Audit trail of ${objectId}`}
          rows={entries.data.items}
          rowKey={(r) => r.id}
          columns={[
            { label: 'When', render: (r) => time(r.at) },
            { label: 'Operator', render: (r) => r.operator },
            { label: 'Action', render: (r) => r.action },
            { label: 'After', render: (r) => <code class="clip">{JSON.stringify(r.after)}</code> },
          ]}
          empty="No operator action on it yet."
        />
      )}
    </>
  );
}

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
