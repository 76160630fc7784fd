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

/** The payouts waiting for an operator: approve after a preview, or reject with a reason. */

export function PayoutApprovals() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Payout>>(`/payouts${qs({ status: 'pending_approval', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  return (
    <section aria-labelledby="approvals-h">
      <h1 id="approvals-h">Payout approvals</h1>
      <p class="muted">
        Payouts above their merchant's auto-approve limit, or to a destination that was not yet active, wait here. The
        total (amount + network fee) is frozen in the wallet until the payout completes, or is rejected or canceled.
      </p>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="payouts waiting for approval" />
      ) : list.data.items.length === 0 ? (
        <p class="muted" data-testid="approvals-empty">
          No payout waits for approval.
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
                · <Amount value={p.amount} unit={p.asset} /> on {p.chain} to <code class="clip">{p.destination}</code> ·
                requested {time(p.createdAt)}
              </div>
              <Decide p={p} />
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label="Pages of payouts waiting for approval" />
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
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'}`;
  const days = Math.floor(hours / 24);
  return `${days} days`;
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
        title: `Approve ${p.id} of ${merchant.name}?`,
        warnings: approveWarnings(p, { merchant, destination }),
        body: <PayoutPreview p={p} preview={{ merchant, destination }} />,
        confirm: `Approve: send ${p.amount} ${p.asset}`,
        action: () =>
          action.run(`Payout ${p.id} approved: ${p.amount} ${p.asset} to ${p.destination}.`, () =>
            adminWrite('POST', `/payouts/${p.id}/approve`),
          ),
      });
    });
  const reject = () => {
    const why = reason.trim();
    confirm.ask({
      title: `Reject ${p.id}?`,
      danger: true,
      body: (
        <p>
          Nothing is sent; the {p.total} {p.asset} frozen for it is released to the merchant's wallet. The merchant sees
          the reason: “{why}”. This cannot be undone.
        </p>
      ),
      confirm: 'Reject: send nothing',
      action: () =>
        action.run(`Payout ${p.id} rejected.`, () => adminWrite('POST', `/payouts/${p.id}/reject`, { reason: why })),
    });
  };
  return (
    <div class="resolve">
      <div class="actions">
        <button type="button" class="primary" disabled={action.busy} onClick={approve}>
          Approve…
        </button>
        <form
          class="actions"
          onSubmit={(e) => {
            e.preventDefault();
            reject();
          }}
        >
          <Field label={`Reason to reject ${p.id}`}>
            <input required maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </Field>
          <button type="submit" class="danger" disabled={action.busy}>
            Reject…
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
  if (merchant.status !== 'active') w.push(`${merchant.name} is ${merchant.status}.`);
  if (destination === null)
    w.push(
      p.destinationId === null
        ? 'The address was given by a payer (refund link), not taken from the address book.'
        : `Destination ${p.destinationId} is no longer in the address book.`,
    );
  else if (destination.status !== 'active')
    w.push(
      `The destination is ${destination.status}${destination.status === 'cooling_off' ? ` until ${time(destination.activeFrom)}` : ''}.`,
    );
  else if (Date.now() - Date.parse(destination.createdAt) < 86_400_000)
    w.push(`The destination was added to the address book ${age(destination.createdAt)} ago.`);
  return w;
}

/** What approving sends, exact as the API gives it. */
function PayoutPreview({ p, preview: { merchant, destination } }: { p: Payout; preview: Preview }) {
  return (
    <dl class="facts" data-testid="payout-preview">
      <dt>Merchant</dt>
      <dd data-testid="preview-merchant">
        {merchant.name} ({merchant.id})
      </dd>
      <dt>Amount (what the destination receives)</dt>
      <dd data-testid="preview-amount">
        <Amount value={p.amount} unit={p.asset} /> on {p.chain} ({p.network})
      </dd>
      <dt>Network fee</dt>
      <dd data-testid="preview-fee">
        <Amount value={p.networkFee} unit={p.asset} />
      </dd>
      <dt>Total (leaves wallet {p.walletId})</dt>
      <dd data-testid="preview-total">
        <strong>
          <Amount value={p.total} unit={p.asset} />
        </strong>
      </dd>
      <dt>Destination</dt>
      <dd data-testid="preview-destination">
        <code>{p.destination}</code>
        {destination?.label ? ` (${destination.label})` : ''}
      </dd>
      <dt>In the address book</dt>
      <dd data-testid="preview-destination-age">
        {destination === null
          ? 'not in the address book'
          : `for ${age(destination.createdAt)} (added ${time(destination.createdAt)}, ${destination.status})`}
      </dd>
      {p.reference ? (
        <>
          <dt>Reference</dt>
          <dd>{p.reference}</dd>
        </>
      ) : null}
      {p.refundOf ? (
        <>
          <dt>Refund of</dt>
          <dd>
            <a href={link(`/checkouts/${p.refundOf}`)}>{p.refundOf}</a>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
