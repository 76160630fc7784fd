import { useState } from 'preact/hooks';
import { admin, adminWrite } from '../api.js';
import type { Chain, ChainWatchView } from '../views.js';
import { ActionStatus, ErrorNote, Field, Loading, Table, useAction, useAsync } from '../../ui-kit/ui.js';
import { t } from '../messages.js';

/**
 * Chains with their confirmation counts and the extended public keys deposit addresses come from,
 * and the chain watcher's state per watched chain (adapter kind, node masked, how far it got).
 */
export function Chains() {
  const list = useAsync(() => admin<Chain[]>('/chains'), []);
  const watches = useAsync(() => admin<ChainWatchView[]>('/chain-watches'), []);
  const [chain, setChain] = useState('');
  const [xpub, setXpub] = useState('');
  const [confirmations, setConfirmations] = useState('');
  const action = useAction();
  return (
    <section aria-labelledby="chains-h">
      <h1 id="chains-h">{t('chains.title')}</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('chains.loadingChains')} />
      ) : (
        <Table
          caption={t('chains.chainsCaption')}
          rows={list.data}
          rowKey={(c) => c.id}
          columns={[
            { label: t('chains.chain'), render: (c) => `${c.name} (${c.symbol})` },
            { label: t('chains.family'), render: (c) => c.family },
            { label: t('chains.network'), render: (c) => c.networkType },
            { label: t('chains.confirmations'), num: true, render: (c) => c.confirmationsRequired },
            { label: t('chains.active'), render: (c) => (c.active ? t('chains.yes') : t('chains.no')) },
            {
              label: t('chains.accountKey'),
              render: (c) =>
                c.accountKey ? <code>{c.accountKey.preview}</code> : <strong>{t('chains.noKey')}</strong>,
            },
            { label: t('chains.fingerprint'), render: (c) => c.accountKey?.fingerprint ?? '—' },
            { label: t('chains.addressesDerived'), num: true, render: (c) => c.accountKey?.nextIndex ?? '—' },
          ]}
        />
      )}
      <h2>{t('chains.watchedChains')}</h2>
      <ErrorNote error={watches.error} />
      {watches.data === undefined ? (
        <Loading what={t('chains.loadingWatches')} />
      ) : (
        <Table
          caption={t('chains.watchesCaption')}
          rows={watches.data}
          rowKey={(w) => w.chain}
          empty={t('chains.noWatch')}
          columns={[
            { label: t('chains.chain'), render: (w) => w.chain },
            { label: t('chains.adapter'), render: (w) => w.kind },
            { label: t('chains.node'), render: (w) => <code>{w.rpcUrl}</code> },
            { label: t('chains.network'), render: (w) => w.networkId ?? t('chains.learnt') },
            { label: t('chains.state'), render: (w) => (w.enabled ? w.status.state : t('chains.stopped')) },
            // A watch stuck failing (the node errs, or its blocks do not link up) sees no payment.
            { label: t('chains.failedRounds'), num: true, render: (w) => w.status.failedRounds },
            { label: t('chains.scannedTo'), num: true, render: (w) => w.status.cursorBlock ?? '—' },
            { label: t('chains.head'), num: true, render: (w) => w.status.headBlock ?? '—' },
            { label: t('chains.lastError'), render: (w) => w.status.lastError ?? '—' },
          ]}
        />
      )}
      <form
        class="card-form"
        aria-label={t('chains.configure')}
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await action.run(t('chains.updated', { chain }), async () => {
            if (xpub.trim() !== '') await adminWrite('PUT', `/chains/${chain}/xpub`, { xpub: xpub.trim() });
            if (confirmations.trim() !== '')
              await adminWrite('PATCH', `/chains/${chain}`, { confirmationsRequired: Number(confirmations) });
          });
          if (ok) {
            setXpub('');
            list.reload();
          }
        }}
      >
        <h2>{t('chains.configure')}</h2>
        <Field label={t('chains.chain')}>
          <select required value={chain} onChange={(e) => setChain(e.currentTarget.value)}>
            <option value="">{t('chains.choose')}</option>
            {(list.data ?? []).map((c) => (
              <option key={c.symbol} value={c.symbol}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('chains.xpub')} hint={t('chains.xpubHint')}>
          <input value={xpub} maxLength={200} onInput={(e) => setXpub(e.currentTarget.value)} />
        </Field>
        <Field label={t('chains.confirmationsRequired')}>
          <input
            inputMode="numeric"
            pattern="[0-9]{1,4}"
            value={confirmations}
            onInput={(e) => setConfirmations(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={action.busy || chain === ''}>
          {t('chains.save')}
        </button>
        <ActionStatus action={action} />
      </form>
    </section>
  );
}
