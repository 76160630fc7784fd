import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import type { Merchant, Page, Payout, PayoutDestination } from '../views.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  link,
  Loading,
  Pager,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { t } from '../messages.js';

/** The payouts waiting for an operator: approve after a preview, or reject with a reason. */

export function PayoutApprovals() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Payout>>(`/payouts${qs({ status: 'pending_approval', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  return (
    <section aria-labelledby="approvals-h">
      <h1 id="approvals-h">{t('payout-approvals.title')}</h1>
      <p class="muted">{t('payout-approvals.intro')}</p>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('payout-approvals.loadingWhat')} />
      ) : list.data.items.length === 0 ? (
        <p class="muted" data-testid="approvals-empty">
          {t('payout-approvals.empty')}
        </p>
      ) : (
        <ul class="queue" data-testid="approval-queue">
          {list.data.items.map((p) => (
            <li key={p.id} data-payout={p.id}>
              <div class="queue-head">
                <a href={link(`/payouts/${p.id}`)}>{p.id}</a>{' '}
                <a href={link(`/merchants/${p.merchant.id}`)} data-testid="queue-merchant">
                  {p.merchant.name}
                </a>{' '}
                · <Amount value={p.amount} unit={p.asset} />
                {t('payout-approvals.onChainTo', { chain: p.chain })}
                <code class="clip">{p.destination}</code>
                {t('payout-approvals.requested', { when: time(p.createdAt) })}
              </div>
              <Decide p={p} />
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label={t('payout-approvals.pagesLabel')} />
      ) : null}
    </section>
  );
}

/** The destination of a payout in its merchant's address book (paged through; null for a payer's address). */
async function findDestination(p: Payout): Promise<PayoutDestination | null> {
  if (p.destinationId === null) return null;
  let cursor: string | undefined;
  do {
    const page = await admin<Page<PayoutDestination>>(
      `/payout-destinations${qs({ merchantId: p.merchantId, limit: '200', cursor })}`,
    );
    const found = page.items.find((d) => d.id === p.destinationId);
    if (found) return found;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return null;
}

/** How long ago, in words a person weighs a payout by: minutes, hours or days. */
export function age(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return t('payout-approvals.minutes', { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('payout-approvals.hours', { n: hours });
  const days = Math.floor(hours / 24);
  return t('payout-approvals.days', { n: days });
}

interface Preview {
  merchant: Merchant;
  destination: PayoutDestination | null;
}

/**
 * Approve and reject both ask first. Approve's confirmation names the merchant, what the
 * destination receives, the network fee, the total that leaves the wallet, and the destination
 * with its age in the address book: a destination added an hour ago is what a stolen key adds.
 */
export function Decide({ p }: { p: Payout }) {
  const action = useAction();
  const confirm = useConfirm();
  const [reason, setReason] = useState('');
  const approve = () =>
    action.run('', async () => {
      const [merchant, destination] = await Promise.all([
        admin<Merchant>(`/merchants/${p.merchantId}`),
        findDestination(p),
      ]);
      confirm.ask({
        title: t('payout-approvals.approveTitle', { id: p.id, merchant: merchant.name }),
        warnings: approveWarnings(p, { merchant, destination }),
        body: <PayoutPreview p={p} preview={{ merchant, destination }} />,
        confirm: t('payout-approvals.approveConfirm', { amount: p.amount, asset: p.asset }),
        action: () =>
          action.run(
            t('payout-approvals.approved', { id: p.id, amount: p.amount, asset: p.asset, destination: p.destination }),
            () => adminWrite('POST', `/payouts/${p.id}/approve`),
          ),
      });
    });
  const reject = () => {
    const why = reason.trim();
    confirm.ask({
      title: t('payout-approvals.rejectTitle', { id: p.id }),
      danger: true,
      body: <p>{t('payout-approvals.rejectBody', { total: p.total, asset: p.asset, why })}</p>,
      confirm: t('payout-approvals.rejectConfirm'),
      action: () =>
        action.run(t('payout-approvals.rejected', { id: p.id }), () =>
          adminWrite('POST', `/payouts/${p.id}/reject`, { reason: why }),
        ),
    });
  };
  return (
    <div class="resolve">
      <div class="actions">
        <button type="button" class="primary" disabled={action.busy} onClick={approve}>
          {t('payout-approvals.approve')}
        </button>
        <form
          class="actions"
          onSubmit={(e) => {
            e.preventDefault();
            reject();
          }}
        >
          <Field label={t('payout-approvals.reasonLabel', { id: p.id })}>
            <input required maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </Field>
          <button type="submit" class="danger" disabled={action.busy}>
            {t('payout-approvals.reject')}
          </button>
        </form>
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </div>
  );
}

function approveWarnings(p: Payout, { merchant, destination }: Preview): string[] {
  const w: string[] = [];
  if (merchant.status !== 'active')
    w.push(t('payout-approvals.merchantStatus', { name: merchant.name, status: merchant.status }));
  if (destination === null)
    w.push(
      p.destinationId === null
        ? t('payout-approvals.payerAddress')
        : t('payout-approvals.destinationGone', { id: p.destinationId }),
    );
  else if (destination.status !== 'active')
    w.push(
      destination.status === 'cooling_off'
        ? t('payout-approvals.destinationUntil', { status: destination.status, until: time(destination.activeFrom) })
        : t('payout-approvals.destinationStatus', { status: destination.status }),
    );
  else if (Date.now() - Date.parse(destination.createdAt) < 86_400_000)
    w.push(t('payout-approvals.destinationNew', { age: age(destination.createdAt) }));
  return w;
}

/** What approving sends, exact as the API gives it. */
function PayoutPreview({ p, preview: { merchant, destination } }: { p: Payout; preview: Preview }) {
  return (
    <dl class="facts" data-testid="payout-preview">
      <dt>{t('payout-approvals.merchant')}</dt>
      <dd data-testid="preview-merchant">
        {merchant.name} ({merchant.id})
      </dd>
      <dt>{t('payout-approvals.amount')}</dt>
      <dd data-testid="preview-amount">
        <Amount value={p.amount} unit={p.asset} />
        {t('payout-approvals.onChainNetwork', { chain: p.chain, network: p.network })}
      </dd>
      <dt>{t('payout-approvals.networkFee')}</dt>
      <dd data-testid="preview-fee">
        <Amount value={p.networkFee} unit={p.asset} />
      </dd>
      <dt>{t('payout-approvals.total', { wallet: p.walletId })}</dt>
      <dd data-testid="preview-total">
        <strong>
          <Amount value={p.total} unit={p.asset} />
        </strong>
      </dd>
      <dt>{t('payout-approvals.destination')}</dt>
      <dd data-testid="preview-destination">
        <code>{p.destination}</code>
        {destination?.label ? ` (${destination.label})` : ''}
      </dd>
      <dt>{t('payout-approvals.inAddressBook')}</dt>
      <dd data-testid="preview-destination-age">
        {destination === null
          ? t('payout-approvals.notInAddressBook')
          : t('payout-approvals.since', {
              age: age(destination.createdAt),
              added: time(destination.createdAt),
              status: destination.status,
            })}
      </dd>
      {p.reference ? (
        <>
          <dt>{t('payout-approvals.reference')}</dt>
          <dd>{p.reference}</dd>
        </>
      ) : null}
      {p.refundOf ? (
        <>
          <dt>{t('payout-approvals.refundOf')}</dt>
          <dd>
            <a href={link(`/checkouts/${p.refundOf}`)}>{p.refundOf}</a>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
