import { admin, adminWrite, ApiError } from '../api.js';
import type { PayoutChain } from '../views.js';
import { ActionStatus, ErrorNote, Table, time, useAction, useAsync, useConfirm } from '../../ui-kit/ui.js';
import { t } from '../messages.js';

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
      <h2 id="hot-wallet-h">{t('payout-hot-wallet.title')}</h2>
      <dl class="facts">
        <dt>{t('payout-hot-wallet.state')}</dt>
        <dd>
          <span class={`status s-${c.state}`} data-testid="chain-state">
            {c.state}
          </span>{' '}
          {t('payout-hot-wallet.atNonce', { nonce: c.nonce })}
          <code class="clip">{c.txHash}</code>
        </dd>
        {c.forgotten ? (
          <>
            <dt>{t('payout-hot-wallet.nodeAnswer')}</dt>
            <dd data-testid="node-answer">
              {t('payout-hot-wallet.forgottenSince', {
                answer: c.forgotten.nodeAnswer,
                since: time(c.forgotten.since),
              })}
            </dd>
          </>
        ) : null}
        {c.cancel ? (
          <>
            <dt>{t('payout-hot-wallet.cancelByReplacement')}</dt>
            <dd data-testid="cancel-status">
              {t('payout-hot-wallet.cancelStatus', {
                status: c.cancel.status,
                by: c.cancel.requestedBy,
                at: time(c.cancel.requestedAt),
              })}
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
        caption={t('payout-hot-wallet.caption', { id: c.payoutId })}
        rowKey={(x) => x.txHash}
        rows={c.transactions}
        columns={[
          { label: t('payout-hot-wallet.hash'), render: (x) => <code class="clip">{x.txHash}</code> },
          { label: t('payout-hot-wallet.kind'), render: (x) => x.kind },
          { label: t('payout-hot-wallet.status'), render: (x) => x.status },
          { label: t('payout-hot-wallet.maxFee'), num: true, render: (x) => x.maxFeePerGas },
          { label: t('payout-hot-wallet.block'), num: true, render: (x) => x.blockNumber ?? '—' },
          { label: t('payout-hot-wallet.signed'), render: (x) => time(x.createdAt) },
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
    action.run(t('payout-hot-wallet.rebroadcasted'), async () => {
      const after = await adminWrite<PayoutChain>('POST', `/payouts/${c.payoutId}/rebroadcast`);
      if (after.forgotten) throw new Error(t('payout-hot-wallet.refusedAgain', { answer: after.forgotten.nodeAnswer }));
    });
  const cancel = () =>
    confirm.ask({
      title: t('payout-hot-wallet.cancelTitle', { id: c.payoutId }),
      danger: true,
      body: (
        <p>
          {t('payout-hot-wallet.cancelBodyBefore', { nonce: c.nonce ?? '' })}
          <code class="clip">{c.txHash}</code>
          {t('payout-hot-wallet.cancelBodyAfter')}
        </p>
      ),
      confirm: t('payout-hot-wallet.cancelByReplacement'),
      action: () =>
        action.run(t('payout-hot-wallet.cancelAsked', { id: c.payoutId }), () =>
          adminWrite('POST', `/payouts/${c.payoutId}/cancel-by-replacement`),
        ),
    });
  return (
    <div class="resolve">
      <div class="actions">
        {c.actions.includes('rebroadcast') ? (
          <button type="button" disabled={action.busy} onClick={rebroadcast}>
            {t('payout-hot-wallet.rebroadcast')}
          </button>
        ) : null}
        {c.actions.includes('cancel_by_replacement') ? (
          <button type="button" class="danger" disabled={action.busy} onClick={cancel}>
            {t('payout-hot-wallet.cancelButton')}
          </button>
        ) : null}
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </div>
  );
}
