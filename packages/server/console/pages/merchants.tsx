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
import { t } from '../messages.js';

/** Merchants: create, suspend and resume; each links to its keys and wallets. */
export function Merchants() {
  const pager = usePager();
  const list = useAsync(() => admin<Page<Merchant>>(`/merchants${qs({ cursor: pager.cursor })}`), [pager.cursor]);
  const [name, setName] = useState('');
  const create = useAction();
  return (
    <section aria-labelledby="merchants-h">
      <h1 id="merchants-h">{t('merchants.title')}</h1>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await create.run(t('merchants.created', { name }), () =>
              adminWrite('POST', '/merchants', { name: name.trim() }),
            )
          ) {
            setName('');
            list.reload();
          }
        }}
      >
        <Field label={t('merchants.newName')}>
          <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={create.busy}>
          {t('merchants.create')}
        </button>
      </form>
      <ActionStatus action={create} />
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('merchants.loadingWhat')} />
      ) : (
        <>
          <Table
            caption={t('merchants.title')}
            rows={list.data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: t('merchants.merchant'), render: (r) => <a href={link(`/merchants/${r.id}`)}>{r.name}</a> },
              { label: t('merchants.id'), render: (r) => <code>{r.id}</code> },
              { label: t('merchants.status'), render: (r) => <span class={`status s-${r.status}`}>{r.status}</span> },
              { label: t('merchants.createdAt'), render: (r) => time(r.createdAt) },
              { label: t('merchants.action'), render: (r) => <SuspendButton merchant={r} onDone={list.reload} /> },
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
    (await action.run(t('merchants.done', { name: merchant.name, verb }), () =>
      adminWrite('POST', `/merchants/${merchant.id}/${verb}`),
    )) && onDone();
  return (
    <>
      <button
        type="button"
        class={verb === 'suspend' ? 'danger' : undefined}
        disabled={action.busy}
        onClick={() =>
          verb === 'suspend'
            ? confirm.ask({
                title: t('merchants.suspendTitle', { name: merchant.name }),
                danger: true,
                body: (
                  <p>
                    {t('merchants.suspendBodyBefore', { name: merchant.name })}
                    <code>{merchant.id}</code>
                    {t('merchants.suspendBodyAfter')}
                  </p>
                ),
                confirm: t('merchants.suspendConfirm', { name: merchant.name }),
                action: run,
              })
            : void run()
        }
      >
        {t('merchants.verb', { verb })} <span class="sr-only">{merchant.name}</span>
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
      <h1 id="merchant-h">{m.data?.name ?? t('merchants.merchant')}</h1>
      <ErrorNote error={m.error} />
      {m.data ? (
        <dl class="facts">
          <dt>{t('merchants.id')}</dt>
          <dd>
            <code>{m.data.id}</code>
          </dd>
          <dt>{t('merchants.status')}</dt>
          <dd>{m.data.status}</dd>
          <dt>{t('merchants.tolerance')}</dt>
          <dd>{m.data.underpaymentTolerancePercent} %</dd>
          <dt>{t('merchants.rateSpread')}</dt>
          <dd>{m.data.rateSpreadPercent === null ? t('merchants.theDefault') : `${m.data.rateSpreadPercent} %`}</dd>
          <dt>{t('merchants.createdAt')}</dt>
          <dd>{time(m.data.createdAt)}</dd>
        </dl>
      ) : null}
      {m.data ? <SuspendButton merchant={m.data} onDone={m.reload} /> : null}
      <h2>{t('merchants.wallets')}</h2>
      <ErrorNote error={wallets.error} />
      <Table
        caption={t('merchants.wallets')}
        rows={wallets.data?.items ?? []}
        rowKey={(w) => w.id}
        columns={[
          {
            label: t('merchants.asset'),
            render: (w) => t('merchants.assetOnChain', { asset: w.asset, chain: w.chain }),
          },
          { label: t('merchants.balance'), num: true, render: (w) => <Amount value={w.amount} unit={w.asset} /> },
          { label: t('merchants.frozen'), num: true, render: (w) => <Amount value={w.freezeAmount} unit={w.asset} /> },
          { label: t('merchants.active'), render: (w) => (w.active ? t('merchants.yes') : t('merchants.no')) },
        ]}
        empty={t('merchants.noWallets')}
      />
      <KeyList merchantId={id} />
    </section>
  );
}
