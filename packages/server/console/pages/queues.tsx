import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import { t } from '../messages.js';
import type { AuditEntry, Checkout, Page, SettlePreviewView, Transfer } from '../views.js';
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
import { AUDIT_ACTION, AUDIT_AFTER, AuditTrail } from './audit.js';
import { CheckoutFacts, Received } from './checkouts.js';

/** The exceptions operators resolve: checkouts in review (settle / reject) and unmatched transfers (attach). */
export function Queues() {
  return (
    <section aria-labelledby="queues-h">
      <h1 id="queues-h">{t('queues.title')}</h1>
      <ReviewQueue />
      <UnmatchedQueue />
      <RecentResolutions />
    </section>
  );
}

function ReviewQueue() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Checkout>>(`/checkouts${qs({ status: 'needs_review', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <h2>{t('queues.review')}</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('queues.reviewWhat')} />
      ) : list.data.items.length === 0 ? (
        <p class="muted" data-testid="review-empty">
          {t('queues.reviewEmpty')}
        </p>
      ) : (
        <ul class="queue" data-testid="review-queue">
          {list.data.items.map((c) => (
            <li key={c.id} data-checkout={c.id}>
              <div class="queue-head">
                <a href={link(`/checkouts/${c.id}`)}>{c.id}</a> <span class="status s-needs_review">{c.reason}</span>{' '}
                <a href={link(`/merchants/${c.merchant.id}`)} data-testid="queue-merchant">
                  {c.merchant.name}
                </a>{' '}
                {t('queues.asked')} <Amount value={c.amount} unit={c.currency} /> {t('queues.received')}{' '}
                <span data-testid="queue-received">
                  <Received c={c} />
                </span>{' '}
                {t('queues.created', { description: c.description ?? c.orderId ?? '', time: time(c.createdAt) })}
                <button
                  type="button"
                  class="link"
                  aria-expanded={open === c.id}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                >
                  {open === c.id ? t('queues.close') : t('queues.resolve')}
                </button>
              </div>
              {open === c.id ? <Resolve c={c} onDone={list.reload} /> : null}
            </li>
          ))}
        </ul>
      )}
      {list.data ? <Pager pager={pager} nextCursor={list.data.nextCursor} label={t('queues.reviewPages')} /> : null}
    </>
  );
}

/**
 * Settle credits what was received (at the locked rate, or today's for an asset not offered) minus
 * the fee; reject credits nothing. Both ask first: the settle's confirmation shows the server's
 * own preview (GET /checkouts/{id}/settle-preview), the figures the settle will post.
 */
function Resolve({ c, onDone }: { c: Checkout; onDone: () => void }) {
  const action = useAction();
  const confirm = useConfirm();
  const groups = [...new Set(c.payments.filter((p) => !p.retracted).map((p) => `${p.asset}/${p.chain}`))];
  const [group, setGroup] = useState(groups[0] ?? '');
  const [asset, chain] = group.split('/');
  const choice = groups.length > 1 ? { asset, chain } : {};
  const settle = () =>
    action.run('', async () => {
      const p = await admin<SettlePreviewView>(`/checkouts/${c.id}/settle-preview${qs(choice)}`);
      confirm.ask({
        title: t('queues.settleTitle', { id: c.id, merchant: p.merchant.name }),
        warnings: settleWarnings(p),
        body: <SettlePreview p={p} />,
        confirm: t('queues.settleConfirm', { amount: p.credit.amount, asset: p.credit.asset }),
        action: async () =>
          (await action.run(t('queues.settled', { id: c.id, amount: p.credit.amount, asset: p.credit.asset }), () =>
            adminWrite('POST', `/checkouts/${c.id}/settle`, choice),
          )) && onDone(),
      });
    });
  const reject = () =>
    confirm.ask({
      title: t('queues.rejectTitle', { id: c.id, merchant: c.merchant.name }),
      danger: true,
      body: (
        <p>
          {t('queues.rejectBefore', { merchant: c.merchant.name })}
          <Received c={c} />
          {t('queues.rejectAfter')}
        </p>
      ),
      confirm: t('queues.rejectConfirm'),
      action: async () =>
        (await action.run(t('queues.rejected', { id: c.id }), () => adminWrite('POST', `/checkouts/${c.id}/reject`))) &&
        onDone(),
    });
  return (
    <div class="resolve">
      <CheckoutFacts c={c} />
      <AuditTrail objectId={c.id} />
      <div class="actions">
        {groups.length > 1 ? (
          <Field label={t('queues.creditIn')}>
            <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
              {groups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <button type="button" class="primary" disabled={action.busy} onClick={settle}>
          {t('queues.settleButton')}
        </button>
        <button type="button" class="danger" disabled={action.busy} onClick={reject}>
          {t('queues.rejectButton')}
        </button>
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </div>
  );
}

function settleWarnings(p: SettlePreviewView): string[] {
  const w: string[] = [];
  if (!p.wallet.exists)
    w.push(t('queues.noWallet', { merchant: p.merchant.name, asset: p.credit.asset, chain: p.credit.chain }));
  else if (!p.wallet.active)
    w.push(t('queues.walletInactive', { asset: p.credit.asset, chain: p.credit.chain, merchant: p.merchant.name }));
  if (p.merchant.status !== 'active')
    w.push(t('queues.merchantStatus', { merchant: p.merchant.name, status: p.merchant.status }));
  if (p.value.rateSource === 'current')
    w.push(t('queues.notOffered', { asset: p.received.asset, currency: p.value.currency }));
  return w;
}

/** The settle preview's figures, exact as the API gives them. */
function SettlePreview({ p }: { p: SettlePreviewView }) {
  return (
    <dl class="facts" data-testid="settle-preview">
      <dt>{t('queues.merchant')}</dt>
      <dd data-testid="preview-merchant">{p.merchant.name}</dd>
      <dt>{t('queues.receivedLabel')}</dt>
      <dd data-testid="preview-received">
        <Amount value={p.received.amount} unit={p.received.asset} /> {t('queues.onChain', { chain: p.received.chain })}
      </dd>
      <dt>{t('queues.valuedAt')}</dt>
      <dd>
        <Amount value={p.value.amount} unit={p.value.currency} /> (1 {p.value.currency} ={' '}
        <Amount value={p.value.rate} unit={p.received.asset} />,{' '}
        {t('queues.rateSource', { source: p.value.rateSource })})
      </dd>
      <dt>{t('queues.fee')}</dt>
      <dd data-testid="preview-fee">
        <Amount value={p.fee.amount} unit={p.fee.asset} /> (<Amount value={p.fee.quoted} unit={p.fee.currency} />)
      </dd>
      <dt>{t('queues.credited')}</dt>
      <dd data-testid="preview-credit">
        <strong>
          <Amount value={p.credit.amount} unit={p.credit.asset} />
        </strong>{' '}
        {t('queues.onChain', { chain: p.credit.chain })}
      </dd>
      <dt>{t('queues.intoWallet')}</dt>
      <dd data-testid="preview-wallet">
        {p.wallet.exists ? (
          <>
            <code>{p.wallet.id}</code> ({p.wallet.active ? t('queues.active') : t('queues.inactive')},{' '}
            {t('queues.balance')} <Amount value={p.wallet.balance} unit={p.credit.asset} />)
          </>
        ) : (
          t('queues.newWallet')
        )}
      </dd>
    </dl>
  );
}

function UnmatchedQueue() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Transfer>>(`/transfers${qs({ matched: 'false', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  return (
    <>
      <h2>{t('queues.unmatched')}</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('queues.unmatchedWhat')} />
      ) : list.data.items.length === 0 ? (
        <p class="muted">{t('queues.unmatchedEmpty')}</p>
      ) : (
        <ul class="queue" data-testid="unmatched-queue">
          {list.data.items.map((x) => (
            <li key={x.id}>
              <div class="queue-head">
                {x.id}: <Amount value={x.amount} unit={x.asset} /> {t('queues.onChainTo', { chain: x.chain })}{' '}
                <code>{x.toAddress}</code> {t('queues.tx')} <code>{x.txHash}</code>{' '}
                {t('queues.seen', { time: time(x.detectedAt) })}
              </div>
              <Attach transfer={x} onDone={list.reload} />
            </li>
          ))}
        </ul>
      )}
      {list.data ? <Pager pager={pager} nextCursor={list.data.nextCursor} label={t('queues.unmatchedPages')} /> : null}
    </>
  );
}

function Attach({ transfer, onDone }: { transfer: Transfer; onDone: () => void }) {
  const [checkoutId, setCheckoutId] = useState('');
  const action = useAction();
  const confirm = useConfirm();
  return (
    <form
      class="actions"
      onSubmit={(e) => {
        e.preventDefault();
        const id = checkoutId.trim();
        void action.run('', async () => {
          const c = await admin<Checkout>(`/checkouts/${id}`);
          confirm.ask({
            title: t('queues.attachTitle', { transfer: transfer.id, id, merchant: c.merchant.name }),
            body: (
              <p>
                <Amount value={transfer.amount} unit={transfer.asset} />{' '}
                {t('queues.attachOn', { chain: transfer.chain })} <code>{transfer.txHash}</code>
                {t('queues.attachBecomes', { id, status: c.status })} <Amount value={c.amount} unit={c.currency} />
                {t('queues.attachSoFar')} <Received c={c} />
                {t('queues.attachAfter', { merchant: c.merchant.name })}
              </p>
            ),
            confirm: t('queues.attach'),
            action: async () =>
              (await action.run(t('queues.attached', { transfer: transfer.id, id }), () =>
                adminWrite('POST', `/transfers/${transfer.id}/attach`, { checkoutId: id }),
              )) && onDone(),
          });
        });
      }}
    >
      <Field label={t('queues.attachTo', { transfer: transfer.id })}>
        <input required value={checkoutId} placeholder="chk_…" onInput={(e) => setCheckoutId(e.currentTarget.value)} />
      </Field>
      <button type="submit" disabled={action.busy}>
        {t('queues.attach')}
      </button>
      <ActionStatus action={action} />
      {confirm.dialog}
    </form>
  );
}

function RecentResolutions() {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const settles = useAsync(async () => {
    const lists = await Promise.all(
      ['checkout.settle', 'checkout.reject', 'transfer.attach'].map((action) =>
        admin<Page<AuditEntry>>(`/audit${qs({ action, since, limit: '50' })}`),
      ),
    );
    return lists.flatMap((l) => l.items).sort((a, b) => (a.at < b.at ? 1 : -1));
  }, []);
  return (
    <>
      <h2>{t('queues.resolutions')}</h2>
      <ErrorNote error={settles.error} />
      {settles.data === undefined ? (
        <Loading what={t('queues.resolutionsWhat')} />
      ) : (
        <Table
          caption={t('queues.resolutionsCaption')}
          rows={settles.data}
          rowKey={(r) => r.id}
          columns={[
            ...AUDIT_ACTION,
            {
              label: t('queues.object'),
              render: (r) =>
                r.objectType === 'checkout' ? <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a> : r.objectId,
            },
            AUDIT_AFTER,
          ]}
          empty={t('queues.resolutionsEmpty')}
        />
      )}
    </>
  );
}
