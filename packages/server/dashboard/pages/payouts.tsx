import { minusDecimal } from '../../ui-kit/decimal.js';
import { useState } from 'preact/hooks';
import { PagedTable } from '../../ui-kit/list-kit.js';
import { ActionForm } from '../../ui-kit/action-form.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { can, cp, cpPage, cpWrite, type Session } from '../api.js';
import { Link } from '../router.js';
import type { Destination, Payout, Wallet } from '../views.js';
import { Status } from './checkouts.js';

/**
 * Money out: request a payout from a wallet to an active destination of the address book, the
 * address book itself (a new address cools off before it can be paid), and the payouts and
 * refunds with their state; a payout is canceled while it waits for approval.
 */
export function Payouts({ session }: { session: Session }) {
  const writes = can(session, 'payouts:write');
  const wallets = useAsync(() => cp<Wallet[]>('/wallets'), []);
  const destinations = useAsync(() => cpPage<Destination>('/payout-destinations', { limit: '100' }), []);
  const pager = usePager();
  const payouts = useAsync(() => cpPage<Payout>('/payouts', { cursor: pager.cursor }), [pager.cursor]);
  const confirm = useConfirm();
  const action = useAction();
  const active = (destinations.data?.items ?? []).filter((d) => d.status === 'active');
  return (
    <>
      <h1>Payouts &amp; refunds</h1>
      <ErrorNote error={wallets.error ?? destinations.error} />
      {writes && wallets.data && destinations.data ? (
        <RequestPayout wallets={wallets.data} destinations={active} />
      ) : null}
      <h2>Payouts and refunds</h2>
      <ErrorNote error={payouts.error} />
      <PagedTable
        page={payouts.data}
        what="payouts"
        pager={pager}
        caption="Payouts and refunds, newest first"
        empty="No payout yet."
        columns={[
          {
            label: 'Payout',
            render: (p) => (
              <Link to={`/payouts/${encodeURIComponent(p.id)}`}>
                <code>{p.id}</code>
              </Link>
            ),
          },
          { label: 'Status', render: (p) => <Status status={p.status} /> },
          { label: 'Amount', num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: 'Network fee', num: true, render: (p) => <Amount value={p.networkFee} unit={p.asset} /> },
          { label: 'To', render: (p) => <code class="clip">{p.destination}</code> },
          {
            label: 'For',
            render: (p) => (p.refundOf ? <Link to={`/checkouts/${p.refundOf}`}>refund</Link> : (p.reference ?? '—')),
          },
          { label: 'Created', render: (p) => time(p.createdAt) },
          {
            label: 'Actions',
            render: (p) =>
              writes && (p.status === 'pending_approval' || p.status === 'approved') ? (
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    confirm.ask({
                      title: 'Cancel this payout?',
                      body: (
                        <p>
                          <Amount value={p.amount} unit={p.asset} /> to <code>{p.destination}</code> will not be sent;
                          the frozen total goes back to the wallet.
                        </p>
                      ),
                      confirm: 'Cancel payout',
                      danger: true,
                      action: () => action.run('Payout canceled.', () => cpWrite('POST', `/payouts/${p.id}/cancel`)),
                    })
                  }
                >
                  Cancel <span class="sr-only">payout {p.id}</span>
                </button>
              ) : null,
          },
        ]}
      />
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>Destinations</h2>
      <p class="muted">
        Payouts go only to addresses of this book. A new address cools off first (its “active from” time): a stolen
        session cannot send money to a new address at once.
      </p>
      {destinations.data === undefined ? (
        <Loading what="destinations" />
      ) : (
        <Table
          caption="Payout destinations"
          rows={destinations.data.items}
          rowKey={(d) => d.id}
          empty="No destination yet."
          columns={[
            { label: 'Label', render: (d) => d.label ?? '—' },
            { label: 'Chain', render: (d) => d.chain },
            { label: 'Address', render: (d) => <code class="clip">{d.address}</code> },
            { label: 'Status', render: (d) => <Status status={d.status} /> },
            { label: 'Active from', render: (d) => time(d.activeFrom) },
            {
              label: 'Actions',
              render: (d) =>
                writes && d.status !== 'revoked' ? (
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      confirm.ask({
                        title: 'Revoke this destination?',
                        body: (
                          <p>
                            No payout can go to <code>{d.address}</code> any more. Adding it again starts a new
                            cooling-off.
                          </p>
                        ),
                        confirm: 'Revoke destination',
                        danger: true,
                        action: () =>
                          action.run('Destination revoked.', () => cpWrite('DELETE', `/payout-destinations/${d.id}`)),
                      })
                    }
                  >
                    Revoke <span class="sr-only">{d.address}</span>
                  </button>
                ) : null,
            },
          ]}
        />
      )}
      {writes ? <AddDestination /> : null}
    </>
  );
}

function RequestPayout({ wallets, destinations }: { wallets: Wallet[]; destinations: Destination[] }) {
  const usable = wallets.filter((w) => w.active);
  const [walletId, setWalletId] = useState(usable[0]?.id ?? '');
  const wallet = usable.find((w) => w.id === walletId);
  const fitting = destinations.filter((d) => wallet === undefined || d.chain === wallet.chain.symbol);
  const [destinationId, setDestinationId] = useState('');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const action = useAction();
  const confirm = useConfirm();
  const chosen = fitting.find((d) => d.id === destinationId) ?? fitting[0];
  return (
    <ActionForm
      action={action}
      id="request-h"
      title="Request a payout"
      submit="Request payout"
      disabled={!wallet || !chosen}
      after={confirm.dialog}
      onSubmit={() => {
        if (!wallet || !chosen) return;
        confirm.ask({
          title: 'Request this payout?',
          body: (
            <p>
              <Amount value={amount.trim()} unit={wallet.asset} /> from the {wallet.asset} wallet to{' '}
              <code>{chosen.address}</code>
              {chosen.label ? ` (${chosen.label})` : ''}, plus the network fee. The operator approves it before it is
              sent.
            </p>
          ),
          confirm: 'Request payout',
          action: () =>
            action.run('Payout requested.', () =>
              cpWrite('POST', '/payouts', {
                walletId: wallet.id,
                destinationId: chosen.id,
                amount: amount.trim(),
                ...(reference.trim() ? { reference: reference.trim() } : {}),
              }),
            ),
        });
      }}
    >
      {usable.length === 0 ? <p class="muted">No active wallet.</p> : null}
      <div class="grid">
        <Field label="Wallet">
          <select value={walletId} onChange={(e) => setWalletId(e.currentTarget.value)}>
            {usable.map((w) => (
              <option value={w.id} key={w.id}>
                {w.asset} on {w.chain.symbol} ({minusDecimal(w.amount, w.freezeAmount)} available)
              </option>
            ))}
          </select>
        </Field>
        <Field label="Destination">
          <select value={chosen?.id ?? ''} onChange={(e) => setDestinationId(e.currentTarget.value)}>
            {fitting.length === 0 ? <option value="">no active destination on this chain</option> : null}
            {fitting.map((d) => (
              <option value={d.id} key={d.id}>
                {d.label ? `${d.label}: ` : ''}
                {d.address}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Amount">
          <input required inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </Field>
        <Field label="Reference (optional)">
          <input maxLength={64} value={reference} onInput={(e) => setReference(e.currentTarget.value)} />
        </Field>
      </div>
    </ActionForm>
  );
}

function AddDestination() {
  const [form, setForm] = useState({ chain: '', address: '', label: '' });
  const action = useAction();
  return (
    <ActionForm
      action={action}
      id="dest-h"
      title="Add a destination"
      level={3}
      submit="Add destination"
      onSubmit={() =>
        action.run('Destination added: it becomes active after its cooling-off.', async () => {
          await cpWrite('POST', '/payout-destinations', {
            chain: form.chain.trim(),
            address: form.address.trim(),
            ...(form.label.trim() ? { label: form.label.trim() } : {}),
          });
          setForm({ chain: '', address: '', label: '' });
        })
      }
    >
      <div class="grid">
        <Field label="Chain" hint="e.g. ETH, TRX, BTC">
          <input
            required
            maxLength={12}
            value={form.chain}
            onInput={(e) => setForm({ ...form, chain: e.currentTarget.value })}
          />
        </Field>
        <Field label="Address">
          <input
            required
            maxLength={128}
            value={form.address}
            onInput={(e) => setForm({ ...form, address: e.currentTarget.value })}
          />
        </Field>
        <Field label="Label (optional)">
          <input
            maxLength={100}
            value={form.label}
            onInput={(e) => setForm({ ...form, label: e.currentTarget.value })}
          />
        </Field>
      </div>
    </ActionForm>
  );
}
