import { useState } from 'preact/hooks';
import { admin, adminWrite } from '../api.js';
import type { Chain, ChainWatchView } from '../views.js';
import { ActionStatus, ErrorNote, Field, Loading, Table, useAction, useAsync } from '../../ui-kit/ui.js';

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
      <h1 id="chains-h">Chains and xpubs</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="chains" />
      ) : (
        <Table
          caption="Chains"
          rows={list.data}
          rowKey={(c) => c.id}
          columns={[
            { label: 'Chain', render: (c) => `${c.name} (${c.symbol})` },
            { label: 'Family', render: (c) => c.family },
            { label: 'Network', render: (c) => c.networkType },
            { label: 'Confirmations', num: true, render: (c) => c.confirmationsRequired },
            { label: 'Active', render: (c) => (c.active ? 'yes' : 'no') },
            {
              label: 'Account key (xpub)',
              render: (c) =>
                c.accountKey ? <code>{c.accountKey.preview}</code> : <strong>none: no checkout can use it</strong>,
            },
            { label: 'Fingerprint', render: (c) => c.accountKey?.fingerprint ?? '—' },
            { label: 'Addresses derived', num: true, render: (c) => c.accountKey?.nextIndex ?? '—' },
          ]}
        />
      )}
      <h2>Watched chains</h2>
      <ErrorNote error={watches.error} />
      {watches.data === undefined ? (
        <Loading what="chain watches" />
      ) : (
        <Table
          caption="Chain watches"
          rows={watches.data}
          rowKey={(w) => w.chain}
          empty="No chain is watched: payments arrive only through POST /admin/v1/transfers (hostpay chain watch, docs/chains.md)."
          columns={[
            { label: 'Chain', render: (w) => w.chain },
            { label: 'Adapter', render: (w) => w.kind },
            { label: 'Node', render: (w) => <code>{w.rpcUrl}</code> },
            { label: 'Network', render: (w) => w.networkId ?? 'learnt at the first round' },
            { label: 'State', render: (w) => (w.enabled ? w.status.state : 'stopped') },
            // A watch stuck failing (the node errs, or its blocks do not link up) sees no payment.
            { label: 'Failed rounds in a row', num: true, render: (w) => w.status.failedRounds },
            { label: 'Scanned to', num: true, render: (w) => w.status.cursorBlock ?? '—' },
            { label: 'Head', num: true, render: (w) => w.status.headBlock ?? '—' },
            { label: 'Last error', render: (w) => w.status.lastError ?? '—' },
          ]}
        />
      )}
      <form
        class="card-form"
        aria-label="Configure a chain"
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await action.run(`Chain ${chain} updated.`, async () => {
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
        <h2>Configure a chain</h2>
        <Field label="Chain">
          <select required value={chain} onChange={(e) => setChain(e.currentTarget.value)}>
            <option value="">choose</option>
            {(list.data ?? []).map((c) => (
              <option key={c.symbol} value={c.symbol}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Extended public key"
          hint="account level: xpub/tpub, or zpub/vpub for BTC; replaces the current one for new addresses"
        >
          <input value={xpub} maxLength={200} onInput={(e) => setXpub(e.currentTarget.value)} />
        </Field>
        <Field label="Confirmations required">
          <input
            inputMode="numeric"
            pattern="[0-9]{1,4}"
            value={confirmations}
            onInput={(e) => setConfirmations(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={action.busy || chain === ''}>
          Save
        </button>
        <ActionStatus action={action} />
      </form>
    </section>
  );
}
