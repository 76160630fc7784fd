import { useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
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
