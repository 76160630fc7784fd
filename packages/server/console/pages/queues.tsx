import { useState } from 'preact/hooks';
import { admin, adminWrite, qs, type Row } from '../api.js';
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
  usePager,
} from '../ui.js';
import { AuditTrail, CheckoutFacts } from './lists.js';

/** The exceptions operators resolve: checkouts in review (settle / reject) and unmatched transfers (attach). */
export function Queues() {
  return (
    <section aria-labelledby="queues-h">
      <h1 id="queues-h">Work queues</h1>
      <ReviewQueue />
      <UnmatchedQueue />
      <RecentResolutions />
    </section>
  );
}

function ReviewQueue() {
  const pager = usePager();
  const list = useAsync(
    () =>
      admin<{ items: Row[]; nextCursor: string | null }>(
        `/checkouts${qs({ status: 'needs_review', cursor: pager.cursor })}`,
      ),
    [pager.cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <h2>Checkouts needing review</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="checkouts in review" />
      ) : list.data.items.length === 0 ? (
        <p class="muted" data-testid="review-empty">
          No checkout needs review.
        </p>
      ) : (
        <ul class="queue" data-testid="review-queue">
          {list.data.items.map((c) => (
            <li key={c.id} data-checkout={c.id}>
              <div class="queue-head">
                <a href={link(`/checkouts/${c.id}`)}>{c.id}</a> <span class="status s-needs_review">{c.reason}</span>{' '}
                <Amount value={c.amount} unit={c.currency} /> · {c.description ?? c.orderId ?? ''} · created{' '}
                {time(c.createdAt)}
                <button
                  type="button"
                  class="link"
                  aria-expanded={open === c.id}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                >
                  {open === c.id ? 'Close' : 'Resolve'}
                </button>
              </div>
              {open === c.id ? <Resolve c={c} onDone={list.reload} /> : null}
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label="Pages of checkouts in review" />
      ) : null}
    </>
  );
}

/** Settle credits what was received (at the locked rate, or today's for an asset not offered) minus the fee; reject credits nothing. */
function Resolve({ c, onDone }: { c: Row; onDone: () => void }) {
  const action = useAction();
  const groups = [
    ...new Set((c.payments ?? []).filter((p: Row) => !p.retracted).map((p: Row) => `${p.asset}/${p.chain}`)),
  ] as string[];
  const [group, setGroup] = useState(groups[0] ?? '');
  const [asset, chain] = group.split('/');
  return (
    <div class="resolve">
      <CheckoutFacts c={c} />
      <AuditTrail objectId={c.id} />
      <div class="actions">
        {groups.length > 1 ? (
          <Field label="Credit the payments in">
            <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
              {groups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <button
          type="button"
          class="primary"
          disabled={action.busy}
          onClick={async () =>
            (await action.run(`Checkout ${c.id} settled.`, () =>
              adminWrite('POST', `/checkouts/${c.id}/settle`, groups.length > 1 ? { asset, chain } : {}),
            )) && onDone()
          }
        >
          Settle (credit what was received, minus the fee)
        </button>
        <button
          type="button"
          class="danger"
          disabled={action.busy}
          onClick={async () =>
            (await action.run(`Checkout ${c.id} rejected.`, () => adminWrite('POST', `/checkouts/${c.id}/reject`))) &&
            onDone()
          }
        >
          Reject (credit nothing)
        </button>
      </div>
      <ActionStatus action={action} />
    </div>
  );
}

function UnmatchedQueue() {
  const pager = usePager();
  const list = useAsync(
    () =>
      admin<{ items: Row[]; nextCursor: string | null }>(`/transfers${qs({ matched: 'false', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  return (
    <>
      <h2>Unmatched transfers</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="unmatched transfers" />
      ) : list.data.items.length === 0 ? (
        <p class="muted">No unmatched transfer.</p>
      ) : (
        <ul class="queue" data-testid="unmatched-queue">
          {list.data.items.map((t) => (
            <li key={t.id}>
              <div class="queue-head">
                {t.id}: <Amount value={t.amount} unit={t.asset} /> on {t.chain} to <code>{t.toAddress}</code> · tx{' '}
                <code>{t.txHash}</code> · seen {time(t.detectedAt)}
              </div>
              <Attach transfer={t} onDone={list.reload} />
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label="Pages of unmatched transfers" />
      ) : null}
    </>
  );
}

function Attach({ transfer, onDone }: { transfer: Row; onDone: () => void }) {
  const [checkoutId, setCheckoutId] = useState('');
  const action = useAction();
  return (
    <form
      class="actions"
      onSubmit={async (e) => {
        e.preventDefault();
        if (
          await action.run(`Transfer ${transfer.id} attached to ${checkoutId}.`, () =>
            adminWrite('POST', `/transfers/${transfer.id}/attach`, { checkoutId: checkoutId.trim() }),
          )
        )
          onDone();
      }}
    >
      <Field label={`Checkout to give ${transfer.id} to`}>
        <input required value={checkoutId} placeholder="chk_…" onInput={(e) => setCheckoutId(e.currentTarget.value)} />
      </Field>
      <button type="submit" disabled={action.busy}>
        Attach
      </button>
      <ActionStatus action={action} />
    </form>
  );
}

function RecentResolutions() {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const settles = useAsync(async () => {
    const lists = await Promise.all(
      ['checkout.settle', 'checkout.reject', 'transfer.attach'].map((action) =>
        admin<{ items: Row[] }>(`/audit${qs({ action, since, limit: '50' })}`),
      ),
    );
    return lists.flatMap((l) => l.items).sort((a, b) => (a.at < b.at ? 1 : -1));
  }, []);
  return (
    <>
      <h2>Resolutions in the last 30 days (audit trail)</h2>
      <ErrorNote error={settles.error} />
      {settles.data === undefined ? (
        <Loading what="the audit trail" />
      ) : (
        <Table
          caption="Recent resolutions"
          rows={settles.data}
          rowKey={(r) => r.id}
          columns={[
            { label: 'When', render: (r) => time(r.at) },
            { label: 'Operator', render: (r) => r.operator },
            { label: 'Action', render: (r) => r.action },
            {
              label: 'Object',
              render: (r) =>
                r.objectType === 'checkout' ? <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a> : r.objectId,
            },
            { label: 'After', render: (r) => <code class="clip">{JSON.stringify(r.after)}</code> },
          ]}
          empty="No resolutions yet."
        />
      )}
    </>
  );
}
