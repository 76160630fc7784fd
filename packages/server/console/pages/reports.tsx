import type { ReconciliationDay, ReconciliationDifference, ReconciliationFigures } from '@hostpay/protocol';
import { useState } from 'preact/hooks';
import { admin, ApiError, qs } from '../api.js';
import type { AsRead } from '../views.js';
import { Amount, ErrorNote, Field, link, Loading, Table, time, useAsync } from '../../ui-kit/ui.js';

/**
 * Every merchant's report files (GET /admin/v1/reports/{kind}) and the reconciliation of the books
 * with the chains (GET /admin/v1/reports/reconciliation): docs/reports.md.
 */
const KINDS = ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const;
const DAY_MS = 86_400_000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A UTC day of a date input as the start of that day. */
const startOf = (d: string) => `${d}T00:00:00Z`;
/** The day after, for an inclusive "to" day. */
const endOf = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + DAY_MS).toISOString();

function useRange(days: number) {
  const today = day(Date.now());
  const [from, setFrom] = useState(day(Date.now() - (days - 1) * DAY_MS));
  const [to, setTo] = useState(today);
  const fields = (
    <>
      <Field label="From (UTC day)">
        <input type="date" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      </Field>
      <Field label="To (UTC day, included)">
        <input type="date" required value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </Field>
    </>
  );
  return { from, to, fields };
}

/** The file as the server streams it, saved under the name it gives; an error answer becomes an ApiError. */
async function download(path: string): Promise<string> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'text/csv, application/x-ndjson' } });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as {
      message?: string;
      error?: { code?: string; requestId?: string };
    } | null;
    throw new ApiError(
      res.status,
      body?.error?.code ?? 'HTTP_ERROR',
      body?.message ?? `the server answered ${res.status}`,
      body?.error?.requestId,
    );
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'hostpay-report';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

export function Reports() {
  const range = useRange(30);
  const [kind, setKind] = useState<string>('checkouts');
  const [format, setFormat] = useState('csv');
  const [merchantId, setMerchantId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState('');
  return (
    <section aria-labelledby="reports-h">
      <h1 id="reports-h">Reports</h1>
      <p class="muted">
        Every merchant’s rows (or one merchant’s), oldest first, with a last column <code>merchantId</code>. The columns
        are the merchant reports’ (docs/reports.md).
      </p>
      <form
        class="filters"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          setSaved('');
          try {
            const query = qs({
              from: startOf(range.from),
              to: endOf(range.to),
              format,
              merchantId: merchantId.trim(),
            });
            setSaved(await download(`/admin/v1/reports/${kind}${query}`));
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Report kind">
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {KINDS.map((k) => (
              <option value={k} key={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
        {range.fields}
        <Field label="Merchant id" hint="empty: every merchant">
          <input value={merchantId} onInput={(e) => setMerchantId(e.currentTarget.value)} placeholder="mer_…" />
        </Field>
        <Field label="Format">
          <select value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            <option value="csv">CSV</option>
            <option value="ndjson">NDJSON</option>
          </select>
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          Download
        </button>
      </form>
      <ErrorNote error={error} />
      {saved === '' ? null : (
        <p role="status" data-testid="report-saved">
          Saved {saved}
        </p>
      )}
    </section>
  );
}

// As the console reads them (views.ts AsRead: counts come as their decimal text).
type Figures = AsRead<ReconciliationFigures>;
type Difference = AsRead<ReconciliationDifference>;
type ReconDay = AsRead<ReconciliationDay>;

function FiguresCell({ f }: { f: Figures }) {
  const sums = Object.entries(f.amounts);
  return (
    <>
      {f.count}
      {sums.map(([asset, amount]) => (
        <div class="muted" key={asset}>
          <Amount value={amount} unit={asset} />
        </div>
      ))}
    </>
  );
}

const REASONS: Record<string, string> = {
  reported_by_hand: 'reported by hand',
  retracted: 'retracted by a reorganisation',
  awaiting_confirmations: 'awaiting confirmations',
  in_review: 'in review',
  unmatched: 'to no deposit address',
  not_credited: 'not credited',
};

function subject(d: Difference) {
  if (d.payoutId !== null) return <a href={link(`/payouts/${d.payoutId}`)}>{d.payoutId}</a>;
  if (d.checkoutId !== null) return <a href={link(`/checkouts/${d.checkoutId}`)}>{d.checkoutId}</a>;
  return `transfer ${d.transferId}`;
}

export function Reconciliation() {
  const range = useRange(7);
  const [applied, setApplied] = useState({ from: range.from, to: range.to });
  const result = useAsync(
    () =>
      admin<{ from: string; to: string; days: ReconDay[] }>(
        `/reports/reconciliation${qs({ from: startOf(applied.from), to: endOf(applied.to) })}`,
      ),
    [applied],
  );
  const differences = (result.data?.days ?? []).flatMap((d) =>
    d.differences.map((x, i) => ({ ...x, chain: d.chain, day: d.day, key: `${d.chain}-${d.day}-${i}` })),
  );
  return (
    <section aria-labelledby="recon-h">
      <h1 id="recon-h">Reconciliation</h1>
      <p class="muted">
        Per chain and UTC day: the transfers chain watchers saw, what was credited, the payouts completed with their
        hashes, and every difference with its reason.
      </p>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ from: range.from, to: range.to });
        }}
      >
        {range.fields}
        <button type="submit" class="primary">
          Show
        </button>
      </form>
      <ErrorNote error={result.error} />
      {result.data === undefined ? (
        result.error === undefined ? (
          <Loading what="the reconciliation" />
        ) : null
      ) : (
        <>
          <Table
            caption="Per chain and day"
            rows={result.data.days}
            rowKey={(d) => `${d.chain}-${d.day}`}
            columns={[
              { label: 'Chain', render: (d) => d.chain },
              { label: 'Day', render: (d) => d.day },
              { label: 'Seen', num: true, render: (d) => <FiguresCell f={d.seen} /> },
              { label: 'Credited', num: true, render: (d) => <FiguresCell f={d.credited} /> },
              { label: 'Payouts completed', num: true, render: (d) => <FiguresCell f={d.payoutsCompleted} /> },
              {
                label: 'Differences',
                num: true,
                render: (d) =>
                  d.differences.length === 0 ? (
                    '0'
                  ) : (
                    <strong class="status s-needs_review" data-testid="day-differences">
                      {d.differences.length}
                    </strong>
                  ),
              },
            ]}
            empty="Nothing seen, credited or paid out in this range."
          />
          <h2>Differences</h2>
          {differences.length === 0 ? (
            <p class="muted" data-testid="no-differences">
              None: everything the watchers saw was credited, and every payout completed on chain.
            </p>
          ) : (
            <p class="warning" role="status">
              {differences.length} difference{differences.length === 1 ? '' : 's'} to look at.
            </p>
          )}
          <Table
            caption="Differences"
            rows={differences}
            rowKey={(d) => d.key}
            columns={[
              { label: 'Chain', render: (d) => d.chain },
              { label: 'Day', render: (d) => d.day },
              {
                label: 'Reason',
                render: (d) => (
                  <strong class="status s-needs_review" data-testid="difference-reason">
                    {REASONS[d.reason] ?? d.reason}
                  </strong>
                ),
              },
              { label: 'Of', render: subject },
              { label: 'Transaction', render: (d) => (d.txHash === null ? '—' : <code class="clip">{d.txHash}</code>) },
              { label: 'Amount', num: true, render: (d) => <Amount value={d.amount} unit={d.asset} /> },
              { label: 'Detail', render: (d) => d.detail ?? '—' },
              { label: 'At', render: (d) => time(d.at) },
            ]}
            empty="No differences."
          />
        </>
      )}
    </section>
  );
}
