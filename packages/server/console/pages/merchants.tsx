import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import type { Merchant, Page, Wallet } from '../views.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  link,
  Loading,
  Pager,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { KeyList } from './keys.js';

/** Merchants: create, suspend and resume; each links to its keys and wallets. */
export function Merchants() {
  const pager = usePager();
  const list = useAsync(() => admin<Page<Merchant>>(`/merchants${qs({ cursor: pager.cursor })}`), [pager.cursor]);
  const [name, setName] = useState('');
  const create = useAction();
  return (
    <section aria-labelledby="merchants-h">
      <h1 id="merchants-h">Merchants</h1>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await create.run(`Merchant ${name} created.`, () => adminWrite('POST', '/merchants', { name: name.trim() }))
          ) {
            setName('');
            list.reload();
          }
        }}
      >
        <Field label="New merchant name">
          <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={create.busy}>
          Create merchant
        </button>
      </form>
      <ActionStatus action={create} />
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="merchants" />
      ) : (
        <>
          <Table
            caption="Merchants"
            rows={list.data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Merchant', render: (r) => <a href={link(`/merchants/${r.id}`)}>{r.name}</a> },
              { label: 'Id', render: (r) => <code>{r.id}</code> },
              { label: 'Status', render: (r) => <span class={`status s-${r.status}`}>{r.status}</span> },
              { label: 'Created', render: (r) => time(r.createdAt) },
              { label: 'Action', render: (r) => <SuspendButton merchant={r} onDone={list.reload} /> },
            ]}
          />
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
        </>
      )}
    </section>
  );
}

function SuspendButton({ merchant, onDone }: { merchant: Merchant; onDone: () => void }) {
  const action = useAction();
  const confirm = useConfirm();
  const verb = merchant.status === 'active' ? 'suspend' : 'resume';
  const run = async () =>
    (await action.run(`${merchant.name}: ${verb}d.`, () => adminWrite('POST', `/merchants/${merchant.id}/${verb}`))) &&
    onDone();
  return (
    <>
      <button
        type="button"
        class={verb === 'suspend' ? 'danger' : undefined}
        disabled={action.busy}
        onClick={() =>
          verb === 'suspend'
            ? confirm.ask({
                title: `Suspend ${merchant.name}?`,
                danger: true,
                body: (
                  <p>
                    Every API request of {merchant.name} (<code>{merchant.id}</code>) is refused until it is resumed: no
                    new checkouts, no reads. Payments still arriving are recorded.
                  </p>
                ),
                confirm: `Suspend ${merchant.name}`,
                action: run,
              })
            : void run()
        }
      >
        {verb === 'suspend' ? 'Suspend' : 'Resume'} <span class="sr-only">{merchant.name}</span>
      </button>
      <ErrorNote error={action.error} />
      {confirm.dialog}
    </>
  );
}

export function MerchantDetail({ id }: { id: string }) {
  const m = useAsync(() => admin<Merchant>(`/merchants/${id}`), [id]);
  const wallets = useAsync(() => admin<Page<Wallet>>(`/wallets${qs({ merchantId: id, limit: '200' })}`), [id]);
  return (
    <section aria-labelledby="merchant-h">
      <h1 id="merchant-h">{m.data?.name ?? 'Merchant'}</h1>
      <ErrorNote error={m.error} />
      {m.data ? (
        <dl class="facts">
          <dt>Id</dt>
          <dd>
            <code>{m.data.id}</code>
          </dd>
          <dt>Status</dt>
          <dd>{m.data.status}</dd>
          <dt>Underpayment tolerance</dt>
          <dd>{m.data.underpaymentTolerancePercent} %</dd>
          <dt>Rate spread</dt>
          <dd>{m.data.rateSpreadPercent === null ? 'the default' : `${m.data.rateSpreadPercent} %`}</dd>
          <dt>Created</dt>
          <dd>{time(m.data.createdAt)}</dd>
        </dl>
      ) : null}
      {m.data ? <SuspendButton merchant={m.data} onDone={m.reload} /> : null}
      <h2>Wallets</h2>
      <ErrorNote error={wallets.error} />
      <Table
        caption="Wallets"
        rows={wallets.data?.items ?? []}
        rowKey={(w) => w.id}
        columns={[
          { label: 'Asset', render: (w) => `${w.asset} on ${w.chain}` },
          { label: 'Balance (incl. frozen)', num: true, render: (w) => <Amount value={w.amount} unit={w.asset} /> },
          { label: 'Frozen', num: true, render: (w) => <Amount value={w.freezeAmount} unit={w.asset} /> },
          { label: 'Active', render: (w) => (w.active ? 'yes' : 'no') },
        ]}
        empty="No wallets."
      />
      <KeyList merchantId={id} />
    </section>
  );
}
