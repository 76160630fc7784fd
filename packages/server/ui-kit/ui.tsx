import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, CHANGED } from './api.js';
import { t } from './kit-messages.js';

/** Small pieces every screen shares: loading state, errors, tables, paging, exact amounts. */

/** A page of a cursor-paginated list (the admin and merchant lists alike). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function useAsync<T>(
  load: () => Promise<T>,
  deps: unknown[],
  { followWrites = true }: { followWrites?: boolean } = {},
): { data: T | undefined; error: Error | undefined; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | undefined; error: Error | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  // Every list and figure on screen follows the data: any write the console makes reloads it.
  useEffect(() => {
    if (!followWrites) return;
    const again = () => setTick((t) => t + 1);
    window.addEventListener(CHANGED, again);
    return () => window.removeEventListener(CHANGED, again);
  }, [followWrites]);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: Error) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const e = error as Error;
  return (
    <p class="error" role="alert">
      {e instanceof ApiError ? <strong>{e.code}: </strong> : null}
      {e.message}
      {e instanceof ApiError && e.requestId ? (
        <span class="muted"> {t('kit.requestId', { id: e.requestId })}</span>
      ) : null}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" aria-live="polite">
      {t('kit.loading', { what })}
    </p>
  );
}

/** An exact decimal as text with thousands separators: the digits are the API's, never a float's. */
export function formatDecimal(text: string | null | undefined): string {
  if (text === null || text === undefined) return '—';
  const negative = text.startsWith('-');
  const [int = '0', frac] = (negative ? text.slice(1) : text).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

export function Amount({ value, unit }: { value: string | null | undefined; unit?: string | undefined }) {
  return (
    <span class="num" data-exact={value ?? ''}>
      {formatDecimal(value)}
      {unit ? <span class="unit"> {unit}</span> : null}
    </span>
  );
}

/** A ratio 0..1 (decimal text) as a percentage, by moving the point: no float. */
export function percentText(ratio: string | null | undefined): string {
  if (ratio === null || ratio === undefined) return '—';
  const [int = '0', frac = ''] = ratio.split('.');
  const padded = (frac + '0000').slice(0, 4);
  const whole = String(Number(int) * 100 + Number(padded.slice(0, 2)));
  const rest = padded.slice(2).replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''} %`;
}

export function duration(seconds: string | number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Number(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export interface Column<T> {
  label: string;
  render: (row: T) => ComponentChildren;
  num?: boolean;
}

export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty = t('kit.empty'),
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty?: string;
}) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    // A table wider than the screen scrolls inside its frame: focusable, so the keyboard scrolls it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (WCAG 2.1.1)
    <section class="table-wrap" tabIndex={0} aria-label={caption}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.num ? 'num' : undefined} key={c.label}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td class={c.num ? 'num' : undefined} key={c.label} data-label={c.label}>
                  {c.render(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Cursor paging: the API's nextCursor forward, a stack of earlier cursors back. */
export function usePager(): {
  cursor: string | undefined;
  next: (c: string) => void;
  back: () => void;
  reset: () => void;
  depth: number;
} {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: stack[stack.length - 1],
    depth: stack.length,
    next: (c) => setStack((s) => [...s, c]),
    back: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    reset: () => setStack([undefined]),
  };
}

export function Pager({
  pager,
  nextCursor,
  label = t('kit.pages'),
}: {
  pager: ReturnType<typeof usePager>;
  nextCursor: string | null | undefined;
  label?: string;
}) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pager.depth <= 1} onClick={pager.back}>
        {t('kit.previousPage')}
      </button>
      <span class="muted">{t('kit.page', { n: pager.depth })}</span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pager.next(nextCursor)}>
        {t('kit.nextPage')}
      </button>
    </nav>
  );
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  // The hint is outside the label, so a control's accessible name is the label alone.
  return (
    <div class="field">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, inside the label */}
      <label>
        <span>{label}</span>
        {children}
      </label>
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

/** Runs a write, shows its error or success, and tells the caller when it is done. */
export function useAction(): {
  busy: boolean;
  error: unknown;
  done: string | undefined;
  run: (label: string, f: () => Promise<unknown>) => Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  return {
    busy,
    error,
    done,
    async run(label, f) {
      setBusy(true);
      setError(undefined);
      setDone(undefined);
      try {
        await f();
        setDone(label);
        return true;
      } catch (e) {
        setError(e);
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

export function ActionStatus({ action }: { action: ReturnType<typeof useAction> }) {
  return (
    <div aria-live="polite">
      <ErrorNote error={action.error} />
      {action.done ? <p class="ok">{action.done}</p> : null}
    </div>
  );
}

export const link = (path: string) => `#${path}`;

export function JsonBlock({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** What a confirmation shows and does: the action runs only on the confirm button. */
export interface ConfirmRequest {
  title: string;
  body: ComponentChildren;
  confirm: string;
  danger?: boolean;
  /** Figures that make the action unsafe to confirm as is (e.g. an inactive wallet): shown first. */
  warnings?: string[];
  action: () => Promise<unknown>;
}

/**
 * Money-moving and destructive actions open a modal <dialog> (focus moves into it, Escape or
 * Cancel closes it, Tab stays inside) naming what will happen; nothing is sent before "confirm".
 */
export function useConfirm(): { ask: (r: ConfirmRequest) => void; dialog: ComponentChildren } {
  // Each request is its own dialog (a new key): asked again right after a close, it opens again
  // instead of reusing the closed one, and the late close of the old one leaves the new one be.
  const [asked, setAsked] = useState<{ req: ConfirmRequest; n: number } | null>(null);
  return {
    ask: (req) => setAsked((a) => ({ req, n: (a?.n ?? 0) + 1 })),
    dialog:
      asked === null ? null : (
        <ConfirmDialog
          key={asked.n}
          req={asked.req}
          onClose={() => setAsked((a) => (a?.req === asked.req ? null : a))}
        />
      ),
  };
}

function ConfirmDialog({ req, onClose }: { req: ConfirmRequest; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    // Focus goes back where it was (the button that asked) however the dialog closes.
    const opener = document.activeElement as HTMLElement | null;
    if (d && !d.open) d.showModal();
    return () => opener?.focus();
  }, []);
  // A modal dialog keeps the page inert, but Tab from its last control would leave for the browser's
  // own UI: it cycles inside instead.
  const trap = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const all = [...ref.current.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea')];
    const first = all[0];
    const last = all[all.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  };
  return (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby="confirm-h"
      data-testid="confirm"
      onClose={onClose}
      onKeyDown={trap}
    >
      <h2 id="confirm-h">{req.title}</h2>
      {(req.warnings ?? []).map((w) => (
        <p class="warning" key={w}>
          {w}
        </p>
      ))}
      {req.body}
      <div class="actions">
        <button
          type="button"
          class={req.danger ? 'danger' : 'primary'}
          onClick={() => {
            ref.current?.close();
            void req.action();
          }}
        >
          {req.confirm}
        </button>
        <button type="button" onClick={() => ref.current?.close()}>
          {t('kit.cancel')}
        </button>
      </div>
    </dialog>
  );
}
