import { useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
import { t } from '../messages.js';
import type { Page, Posting, Wallet } from '../views.js';
import { Amount, ErrorNote, Field, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { PagedTable, useDetail } from '../../ui-kit/list-kit.js';

/** Ledger postings of one wallet, oldest first, each row to its full record. */

export function PostingList() {
  const wallets = useAsync(() => admin<Page<Wallet>>('/wallets?limit=200'), []);
  const [walletId, setWalletId] = useState('');
  const pager = usePager();
  const detail = useDetail();
  const postings = useAsync(
    () =>
      walletId === ''
        ? Promise.resolve(undefined)
        : admin<Page<Posting>>(`/wallets/${walletId}/postings${qs({ cursor: pager.cursor })}`),
    [walletId, pager.cursor],
  );
  return (
    <section aria-labelledby="postings-h">
      <h1 id="postings-h">{t('postings.title')}</h1>
      <ErrorNote error={wallets.error} />
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('postings.wallet')}>
          <select
            value={walletId}
            onChange={(e) => {
              pager.reset();
              setWalletId(e.currentTarget.value);
            }}
          >
            <option value="">{t('postings.chooseWallet')}</option>
            {(wallets.data?.items ?? []).map((w) => (
              <option value={w.id} key={w.id}>
                {t('postings.walletOption', { asset: w.asset, chain: w.chain, merchantId: w.merchantId, id: w.id })}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorNote error={postings.error} />
      {walletId === '' ? (
        <p class="muted">{t('postings.choose')}</p>
      ) : (
        <PagedTable
          page={postings.data}
          what={t('postings.what')}
          pager={pager}
          caption={t('postings.caption')}
          columns={[
            { label: t('postings.posting'), render: (r) => r.id },
            { label: t('postings.kind'), render: (r) => r.kind },
            { label: t('postings.amount'), num: true, render: (r) => <Amount value={r.amount} /> },
            { label: t('postings.balanceAfter'), num: true, render: (r) => <Amount value={r.amountAfter} /> },
            { label: t('postings.frozenAfter'), num: true, render: (r) => <Amount value={r.freezeAmountAfter} /> },
            { label: t('postings.at'), render: (r) => time(r.createdAt) },
            detail.column(t('postings.detailWhat')),
          ]}
          empty={t('postings.empty')}
          detail={detail}
        />
      )}
    </section>
  );
}
