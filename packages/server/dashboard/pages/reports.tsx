import type { ReportFormat, ReportKind } from '@hostpay/protocol';
import { useState } from 'preact/hooks';
import { Amount, ErrorNote, Field, Loading, Table, useAsync } from '../../ui-kit/ui.js';
import { can, cp, qs, type Session } from '../api.js';
import { isMonth, monthOf, monthRange, rangeProblem, rangeQuery, type DayRange } from '../report-range.js';
import type { Statement, StatementLine } from '../views.js';

/**
 * Reports: a file of checkouts, payments, payouts, ledger postings or fees over whole UTC days,
 * downloaded straight from the merchant API, and the month's statement per wallet on screen
 * (docs/reports.md). The download is a plain link to the export: the browser sends the session
 * cookie with it, the server's Content-Disposition names the file, and the file streams to disk
 * however long it is, never held in the page's memory.
 */
const KINDS: Record<ReportKind, { label: string; scope: string }> = {
  checkouts: { label: 'Checkouts', scope: 'checkout:read' },
  payments: { label: 'Payments', scope: 'checkout:read' },
  payouts: { label: 'Payouts and refunds', scope: 'payouts:read' },
  ledger: { label: 'Ledger postings', scope: 'checkout:read' },
  fees: { label: 'Fees', scope: 'checkout:read' },
};
const FORMATS: Record<ReportFormat, string> = { csv: 'CSV', ndjson: 'NDJSON' };

export function Reports({ session }: { session: Session }) {
  return (
    <>
      <h1>Reports</h1>
      <p class="muted">Days and times are UTC; amounts are exact, as recorded.</p>
      <Download session={session} />
      <MonthStatement />
    </>
  );
}

function Download({ session }: { session: Session }) {
  const kinds = (Object.keys(KINDS) as ReportKind[]).filter((k) => can(session, KINDS[k].scope));
  const [kind, setKind] = useState<ReportKind>(kinds[0] ?? 'checkouts');
  const [format, setFormat] = useState<ReportFormat>('csv');
  const [range, setRange] = useState<DayRange>(() => monthRange(Date.now(), 0));
  const problem = rangeProblem(range);
  const href = problem === undefined ? `/api/v1/cp/reports/${kind}${qs({ ...rangeQuery(range), format })}` : undefined;
  return (
    <section class="card-form" aria-labelledby="download-h">
      <h2 id="download-h">Download</h2>
      <div class="grid">
        <Field label="Report">
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ReportKind)}>
            {kinds.map((k) => (
              <option value={k} key={k}>
                {KINDS[k].label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="First day">
          <input
            type="date"
            required
            value={range.from}
            onInput={(e) => setRange({ ...range, from: e.currentTarget.value })}
          />
        </Field>
        <Field label="Last day">
          <input
            type="date"
            required
            value={range.to}
            onInput={(e) => setRange({ ...range, to: e.currentTarget.value })}
          />
        </Field>
        <Field label="Format">
          <select value={format} onChange={(e) => setFormat(e.currentTarget.value as ReportFormat)}>
            {(Object.keys(FORMATS) as ReportFormat[]).map((f) => (
              <option value={f} key={f}>
                {FORMATS[f]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="actions">
        <button type="button" onClick={() => setRange(monthRange(Date.now(), 0))}>
          This month
        </button>
        <button type="button" onClick={() => setRange(monthRange(Date.now(), -1))}>
          Last month
        </button>
      </div>
      {href === undefined ? (
        <p class="warning" data-testid="range-problem">
          {problem}
        </p>
      ) : (
        <a class="button primary" href={href} download data-testid="download">
          Download {KINDS[kind].label.toLowerCase()} ({FORMATS[format]})
        </a>
      )}
      <p class="muted">
        {range.from} 00:00 to {range.to} 24:00 UTC, at most a year; rows oldest first. CSV opens in a spreadsheet (a
        cell that would run as a formula starts with '); NDJSON is one JSON object a line.
      </p>
    </section>
  );
}

function MonthStatement() {
  const [month, setMonth] = useState(() => monthOf(Date.now()));
  const valid = isMonth(month);
  const statement = useAsync(
    () => (valid ? cp<Statement>('/reports/statement', { month }) : Promise.resolve(undefined)),
    [month, valid],
  );
  return (
    <section aria-labelledby="statement-h">
      <h2 id="statement-h">Statement</h2>
      <div class="filters">
        <Field label="Month" hint="UTC, YYYY-MM">
          <input type="month" required value={month} onInput={(e) => setMonth(e.currentTarget.value)} />
        </Field>
      </div>
      <ErrorNote error={statement.error} />
      {!valid ? (
        <p class="warning">Choose a month.</p>
      ) : statement.data === undefined ? (
        statement.error ? null : (
          <Loading what="the statement" />
        )
      ) : (
        <Table<StatementLine>
          caption={`Statement of ${statement.data.month}, per wallet`}
          rows={statement.data.wallets}
          rowKey={(w) => w.walletId}
          empty="No wallet existed by the end of this month."
          columns={[
            {
              label: 'Wallet',
              render: (w) => (
                <>
                  {w.asset} on {w.chain} <code class="muted">{w.walletId}</code>
                </>
              ),
            },
            { label: 'Opening', num: true, render: (w) => <Amount value={w.opening} unit={w.asset} /> },
            { label: 'Credits', num: true, render: (w) => <Amount value={w.credits} unit={w.asset} /> },
            { label: 'Debits', num: true, render: (w) => <Amount value={w.debits} unit={w.asset} /> },
            { label: 'Fees', num: true, render: (w) => <Amount value={w.fees} unit={w.asset} /> },
            { label: 'Closing', num: true, render: (w) => <Amount value={w.closing} unit={w.asset} /> },
            { label: 'Frozen at close', num: true, render: (w) => <Amount value={w.frozenAtClose} unit={w.asset} /> },
          ]}
        />
      )}
      <p class="muted">
        Opening + credits − debits = closing, to the last digit. Settlement credits are already net of fees; the fees
        column shows what was withheld, for information.
      </p>
    </section>
  );
}
