import { admin, adminWrite, ApiError } from '../api.js';
import type { PayoutChain } from '../views.js';
import { ActionStatus, ErrorNote, Table, time, useAction, useAsync, useConfirm } from '../../ui-kit/ui.js';

/**
 * A hot-wallet payout's transactions (GET /payouts/{id}/hot-wallet): the state of the one that
 * decides it — FORGOTTEN when the node has no trace of it and refused it again, with the node's
 * answer — an operator's cancel by replacement, and the two ways out (both audited):
 * send the same bytes again, or replace them with a zero-value transfer to the wallet itself.
 * Nothing shows for a payout the hot wallet never signed (state null).
 */
export function PayoutHotWallet({ id }: { id: string }) {
  const chain = useAsync(async () => {
    try {
      return await admin<PayoutChain>(`/payouts/${id}/hot-wallet`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }, [id]);
  if (chain.error) return <ErrorNote error={chain.error} />;
  // A payout the hot wallet never signed: nothing of it to show.
  if (!chain.data || chain.data.state === null) return null;
  const c = chain.data;
  return (
    <section aria-labelledby="hot-wallet-h" data-testid="payout-hot-wallet">
      <h2 id="hot-wallet-h">Hot wallet transaction</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <span class={`status s-${c.state}`} data-testid="chain-state">
            {c.state}
          </span>{' '}
          at nonce {c.nonce}, <code class="clip">{c.txHash}</code>
        </dd>
        {c.forgotten ? (
          <>
            <dt>Node answer</dt>
            <dd data-testid="node-answer">
              {c.forgotten.nodeAnswer} (forgotten since {time(c.forgotten.since)})
            </dd>
          </>
        ) : null}
        {c.cancel ? (
          <>
            <dt>Cancel by replacement</dt>
            <dd data-testid="cancel-status">
              {c.cancel.status}, asked by {c.cancel.requestedBy} at {time(c.cancel.requestedAt)}
              {c.cancel.txHash ? (
                <>
                  {' '}
                  · <code class="clip">{c.cancel.txHash}</code>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      <p data-testid="chain-advice">{c.advice}</p>
      <WayOut c={c} />
      <Table
        caption={`Transactions of payout ${c.payoutId}`}
        rowKey={(t) => t.txHash}
        rows={c.transactions}
        columns={[
          { label: 'Hash', render: (t) => <code class="clip">{t.txHash}</code> },
          { label: 'Kind', render: (t) => t.kind },
          { label: 'Status', render: (t) => t.status },
          { label: 'Max fee (wei)', num: true, render: (t) => t.maxFeePerGas },
          { label: 'Block', num: true, render: (t) => t.blockNumber ?? '—' },
          { label: 'Signed', render: (t) => time(t.createdAt) },
        ]}
      />
    </section>
  );
}

function WayOut({ c }: { c: PayoutChain }) {
  const action = useAction();
  const confirm = useConfirm();
  if (c.actions.length === 0) return null;
  const rebroadcast = () =>
    action.run('The node took the transaction.', async () => {
      const after = await adminWrite<PayoutChain>('POST', `/payouts/${c.payoutId}/rebroadcast`);
      if (after.forgotten) throw new Error(`The node refused it again: ${after.forgotten.nodeAnswer}`);
    });
  const cancel = () =>
    confirm.ask({
      title: `Cancel ${c.payoutId} by replacement?`,
      danger: true,
      body: (
        <p>
          The hot wallet signs a transfer of 0 to itself at nonce {c.nonce}, with a higher fee, in place of{' '}
          <code class="clip">{c.txHash}</code>. The payout fails and its total is released to the merchant only once
          that is mined to the chain's depth. If the payout's own transaction is mined first, the payout completes and
          the cancel is lost. Either way the wallet pays the gas of one transaction.
        </p>
      ),
      confirm: 'Cancel by replacement',
      action: () =>
        action.run(`Cancel by replacement of ${c.payoutId} asked for: the sender signs it at its next round.`, () =>
          adminWrite('POST', `/payouts/${c.payoutId}/cancel-by-replacement`),
        ),
    });
  return (
    <div class="resolve">
      <div class="actions">
        {c.actions.includes('rebroadcast') ? (
          <button type="button" disabled={action.busy} onClick={rebroadcast}>
            Rebroadcast
          </button>
        ) : null}
        {c.actions.includes('cancel_by_replacement') ? (
          <button type="button" class="danger" disabled={action.busy} onClick={cancel}>
            Cancel by replacement…
          </button>
        ) : null}
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </div>
  );
}
