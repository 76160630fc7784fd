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
import { t } from '../messages.js';
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
      <h1>{t('payouts.title')}</h1>
      <ErrorNote error={wallets.error ?? destinations.error} />
      {writes && wallets.data && destinations.data ? (
        <RequestPayout wallets={wallets.data} destinations={active} />
      ) : null}
      <h2>{t('payouts.list')}</h2>
      <ErrorNote error={payouts.error} />
      <PagedTable
        page={payouts.data}
        what={t('payouts.what')}
        pager={pager}
        caption={t('payouts.caption')}
        empty={t('payouts.noPayout')}
        columns={[
          {
            label: t('payouts.payout'),
            render: (p) => (
              <Link to={`/payouts/${encodeURIComponent(p.id)}`}>
                <code>{p.id}</code>
              </Link>
            ),
          },
          { label: t('payouts.status'), render: (p) => <Status status={p.status} /> },
          { label: t('payouts.amount'), num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: t('payouts.networkFee'), num: true, render: (p) => <Amount value={p.networkFee} unit={p.asset} /> },
          { label: t('payouts.to'), render: (p) => <code class="clip">{p.destination}</code> },
          {
            label: t('payouts.for'),
            render: (p) =>
              p.refundOf ? <Link to={`/checkouts/${p.refundOf}`}>{t('payouts.refund')}</Link> : (p.reference ?? '—'),
          },
          { label: t('payouts.created'), render: (p) => time(p.createdAt) },
          {
            label: t('payouts.actions'),
            render: (p) =>
              writes && (p.status === 'pending_approval' || p.status === 'approved') ? (
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    confirm.ask({
                      title: t('payouts.cancelTitle'),
                      body: (
                        <p>
                          <Amount value={p.amount} unit={p.asset} /> {t('payouts.cancelTo')}{' '}
                          <code>{p.destination}</code> {t('payouts.cancelBody')}
                        </p>
                      ),
                      confirm: t('payouts.cancelConfirm'),
                      danger: true,
                      action: () => action.run(t('payouts.canceled'), () => cpWrite('POST', `/payouts/${p.id}/cancel`)),
                    })
                  }
                >
                  {t('payouts.cancel')} <span class="sr-only">{t('payouts.cancelWhich', { id: p.id })}</span>
                </button>
              ) : null,
          },
        ]}
      />
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>{t('payouts.destinations')}</h2>
      <p class="muted">{t('payouts.destinationsIntro')}</p>
      {destinations.data === undefined ? (
        <Loading what={t('payouts.destinationsWhat')} />
      ) : (
        <Table
          caption={t('payouts.destinationsCaption')}
          rows={destinations.data.items}
          rowKey={(d) => d.id}
          empty={t('payouts.noDestination')}
          columns={[
            { label: t('payouts.label'), render: (d) => d.label ?? '—' },
            { label: t('payouts.chain'), render: (d) => d.chain },
            { label: t('payouts.address'), render: (d) => <code class="clip">{d.address}</code> },
            { label: t('payouts.status'), render: (d) => <Status status={d.status} /> },
            { label: t('payouts.activeFrom'), render: (d) => time(d.activeFrom) },
            {
              label: t('payouts.actions'),
              render: (d) =>
                writes && d.status !== 'revoked' ? (
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      confirm.ask({
                        title: t('payouts.revokeTitle'),
                        body: (
                          <p>
                            {t('payouts.revokeBefore')} <code>{d.address}</code> {t('payouts.revokeAfter')}
                          </p>
                        ),
                        confirm: t('payouts.revokeConfirm'),
                        danger: true,
                        action: () =>
                          action.run(t('payouts.revoked'), () => cpWrite('DELETE', `/payout-destinations/${d.id}`)),
                      })
                    }
                  >
                    {t('payouts.revoke')} <span class="sr-only">{d.address}</span>
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
      title={t('payouts.requestTitle')}
      submit={t('payouts.request')}
      disabled={!wallet || !chosen}
      after={confirm.dialog}
      onSubmit={() => {
        if (!wallet || !chosen) return;
        confirm.ask({
          title: t('payouts.requestAsk'),
          body: (
            <p>
              <Amount value={amount.trim()} unit={wallet.asset} /> {t('payouts.requestFrom', { asset: wallet.asset })}{' '}
              <code>{chosen.address}</code>
              {chosen.label ? ` (${chosen.label})` : ''}
              {t('payouts.requestAfter')}
            </p>
          ),
          confirm: t('payouts.request'),
          action: () =>
            action.run(t('payouts.requested'), () =>
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
      {usable.length === 0 ? <p class="muted">{t('payouts.noWallet')}</p> : null}
      <div class="grid">
        <Field label={t('payouts.wallet')}>
          <select value={walletId} onChange={(e) => setWalletId(e.currentTarget.value)}>
            {usable.map((w) => (
              <option value={w.id} key={w.id}>
                {t('payouts.walletOption', {
                  asset: w.asset,
                  chain: w.chain.symbol,
                  available: minusDecimal(w.amount, w.freezeAmount),
                })}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('payouts.destination')}>
          <select value={chosen?.id ?? ''} onChange={(e) => setDestinationId(e.currentTarget.value)}>
            {fitting.length === 0 ? <option value="">{t('payouts.noFitting')}</option> : null}
            {fitting.map((d) => (
              <option value={d.id} key={d.id}>
                {d.label ? `${d.label}: ` : ''}
                {d.address}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('payouts.amount')}>
          <input required inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </Field>
        <Field label={t('payouts.reference')}>
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
      title={t('payouts.addTitle')}
      level={3}
      submit={t('payouts.add')}
      onSubmit={() =>
        action.run(t('payouts.added'), async () => {
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
        <Field label={t('payouts.chain')} hint={t('payouts.chainHint')}>
          <input
            required
            maxLength={12}
            value={form.chain}
            onInput={(e) => setForm({ ...form, chain: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('payouts.address')}>
          <input
            required
            maxLength={128}
            value={form.address}
            onInput={(e) => setForm({ ...form, address: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('payouts.labelOptional')}>
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
