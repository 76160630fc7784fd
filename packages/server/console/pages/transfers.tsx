import { admin, qs } from '../api.js';
import type { Page, Transfer } from '../views.js';
import { Amount, ErrorNote, Field, link, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { FilterForm, FilterInput, PagedTable, useDetail, useFilters } from '../../ui-kit/list-kit.js';

/** Payments: the transfers chain indexers reported, matched to a checkout or not, each row to its full record. */

export function PaymentList() {
  const f = useFilters({ matched: '', chain: '', checkoutId: '' });
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Transfer>>(`/transfers${qs({ ...f.applied, cursor: pager.cursor })}`),
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
