import { admin, qs } from '../api.js';
import { t } from '../messages.js';
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
      <h1 id="payments-h">{t('transfers.title')}</h1>
      <FilterForm filters={f} pager={pager}>
        <Field label={t('transfers.matched')}>
          <select value={f.draft.matched} onChange={(e) => f.set('matched', e.currentTarget.value)}>
            <option value="">{t('transfers.any')}</option>
            <option value="true">{t('transfers.matchedToCheckout')}</option>
            <option value="false">{t('transfers.unmatched')}</option>
          </select>
        </Field>
        <FilterInput filters={f} name="chain" label={t('transfers.chain')} />
        <FilterInput filters={f} name="checkoutId" label={t('transfers.checkoutId')} />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what={t('transfers.what')}
        pager={pager}
        caption={t('transfers.caption')}
        columns={[
          { label: t('transfers.transfer'), render: (r) => r.id },
          { label: t('transfers.amount'), num: true, render: (r) => <Amount value={r.amount} unit={r.asset} /> },
          { label: t('transfers.chain'), render: (r) => r.chain },
          {
            label: t('transfers.checkout'),
            render: (r) =>
              r.checkoutId ? <a href={link(`/checkouts/${r.checkoutId}`)}>{r.checkoutId}</a> : t('transfers.unmatched'),
          },
          { label: t('transfers.exception'), render: (r) => r.exception ?? '—' },
          { label: t('transfers.detected'), render: (r) => time(r.detectedAt) },
          detail.column(t('transfers.detailWhat')),
        ]}
        empty={t('transfers.empty')}
        detail={detail}
      />
    </section>
  );
}
