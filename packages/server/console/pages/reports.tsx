import type { ReconciliationDay, ReconciliationDifference, ReconciliationFigures } from '@hostpay/protocol';
import { useState } from 'preact/hooks';
import { admin, ApiError, qs } from '../api.js';
import { t } from '../messages.js';
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
      <Field label={t('reports.from')}>
        <input type="date" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      </Field>
      <Field label={t('reports.to')}>
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
      body?.message ?? t('reports.serverAnswered', { status: res.status }),
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
      <h1 id="reports-h">{t('reports.title')}</h1>
      <p class="muted">
        {t('reports.introBefore')} <code>merchantId</code>
        {t('reports.introAfter')}
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
        <Field label={t('reports.kind')}>
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {KINDS.map((k) => (
              <option value={k} key={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
        {range.fields}
        <Field label={t('reports.merchantId')} hint={t('reports.merchantIdHint')}>
          <input value={merchantId} onInput={(e) => setMerchantId(e.currentTarget.value)} placeholder="mer_…" />
        </Field>
        <Field label={t('reports.format')}>
          <select value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            <option value="csv">CSV</option>
            <option value="ndjson">NDJSON</option>
          </select>
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t('reports.download')}
        </button>
      </form>
      <ErrorNote error={error} />
      {saved === '' ? null : (
        <p role="status" data-testid="report-saved">
          {t('reports.saved', { name: saved })}
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
  reported_by_hand: t('reports.reasonReportedByHand'),
  retracted: t('reports.reasonRetracted'),
  awaiting_confirmations: t('reports.reasonAwaitingConfirmations'),
  in_review: t('reports.reasonInReview'),
  unmatched: t('reports.reasonUnmatched'),
  not_credited: t('reports.reasonNotCredited'),
};

function subject(d: Difference) {
  if (d.payoutId !== null) return <a href={link(`/payouts/${d.payoutId}`)}>{d.payoutId}</a>;
  if (d.checkoutId !== null) return <a href={link(`/checkouts/${d.checkoutId}`)}>{d.checkoutId}</a>;
  return t('reports.subjectTransfer', { id: String(d.transferId) });
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
      <h1 id="recon-h">{t('reports.reconTitle')}</h1>
      <p class="muted">{t('reports.reconIntro')}</p>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ from: range.from, to: range.to });
        }}
      >
        {range.fields}
        <button type="submit" class="primary">
          {t('reports.show')}
        </button>
      </form>
      <ErrorNote error={result.error} />
      {result.data === undefined ? (
        result.error === undefined ? (
          <Loading what={t('reports.reconWhat')} />
        ) : null
      ) : (
        <>
          <Table
            caption={t('reports.daysCaption')}
            rows={result.data.days}
            rowKey={(d) => `${d.chain}-${d.day}`}
            columns={[
              { label: t('reports.chain'), render: (d) => d.chain },
              { label: t('reports.day'), render: (d) => d.day },
              { label: t('reports.seen'), num: true, render: (d) => <FiguresCell f={d.seen} /> },
              { label: t('reports.credited'), num: true, render: (d) => <FiguresCell f={d.credited} /> },
              {
                label: t('reports.payoutsCompleted'),
                num: true,
                render: (d) => <FiguresCell f={d.payoutsCompleted} />,
              },
              {
                label: t('reports.differences'),
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
            empty={t('reports.daysEmpty')}
          />
          <h2>{t('reports.differences')}</h2>
          {differences.length === 0 ? (
            <p class="muted" data-testid="no-differences">
              {t('reports.noDifferences')}
            </p>
          ) : (
            <p class="warning" role="status">
              {t('reports.differencesToLook', { count: differences.length })}
            </p>
          )}
          <Table
            caption={t('reports.differences')}
            rows={differences}
            rowKey={(d) => d.key}
            columns={[
              { label: t('reports.chain'), render: (d) => d.chain },
              { label: t('reports.day'), render: (d) => d.day },
              {
                label: t('reports.reason'),
                render: (d) => (
                  <strong class="status s-needs_review" data-testid="difference-reason">
                    {REASONS[d.reason] ?? d.reason}
                  </strong>
                ),
              },
              { label: t('reports.of'), render: subject },
              {
                label: t('reports.transaction'),
                render: (d) => (d.txHash === null ? '—' : <code class="clip">{d.txHash}</code>),
              },
              { label: t('reports.amount'), num: true, render: (d) => <Amount value={d.amount} unit={d.asset} /> },
              { label: t('reports.detail'), render: (d) => d.detail ?? '—' },
              { label: t('reports.at'), render: (d) => time(d.at) },
            ]}
            empty={t('reports.noDifferencesRows')}
          />
        </>
      )}
    </section>
  );
}
