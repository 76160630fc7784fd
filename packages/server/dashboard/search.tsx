import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../ui-kit/ui.js';
import { cp } from './api.js';
import { t } from './messages.js';
import { BASE, onNavigate } from './router.js';
import type { SearchHit } from './views.js';

/**
 * The top bar's search (GET /api/v1/cp/search): checkouts by id, order id, customer email,
 * deposit address, transaction hash or amount, payouts by id, address, hash or amount, payment
 * links by id, address or name, invoices by id, number, email or total. Enter searches; the hits
 * drop down under the box as links to their pages. Keyboard: Down from the box goes to the first
 * hit, Up and Down move between hits, Escape closes the list and goes back to the box.
 */
const MIN = 3;
const MAX = 200;

const TYPE_LABEL: Record<SearchHit['type'], string> = {
  checkout: t('shell.hitCheckout'),
  payout: t('shell.hitPayout'),
  invoice: t('shell.hitInvoice'),
  payment_link: t('shell.hitLink'),
};

const SCREEN: Record<SearchHit['type'], string> = {
  checkout: '/checkouts',
  payout: '/payouts',
  invoice: '/invoices',
  payment_link: '/links',
};

/** The screen of a hit. */
const pathOf = (hit: SearchHit): string => `${SCREEN[hit.type]}/${encodeURIComponent(hit.id)}`;

type Answer = { q: string; hits: SearchHit[] } | { q: string; error: unknown } | { q: string; busy: true };

export function TopSearch() {
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const asked = useRef(0);
  const box = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const close = () => {
    asked.current++;
    setAnswer(null);
  };
  // Following a hit (or any link) leaves the list behind.
  useEffect(() => onNavigate(close), []);

  const search = async () => {
    const q = text.trim();
    const n = ++asked.current;
    // The box's own limits count spaces; the search does not.
    if (q.length < MIN || q.length > MAX) {
      setAnswer({ q, error: new Error(t('shell.searchLength', { min: MIN, max: MAX })) });
      return;
    }
    setAnswer({ q, busy: true });
    try {
      const hits = await cp<SearchHit[]>('/search', { q });
      if (n === asked.current) setAnswer({ q, hits });
    } catch (error) {
      if (n === asked.current) setAnswer({ q, error });
    }
  };
  const links = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && answer !== null) {
      e.preventDefault();
      close();
      box.current?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const all = links();
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (at === -1 && e.target !== box.current) return;
    e.preventDefault();
    if (e.key === 'ArrowDown') all[Math.min(at + 1, all.length - 1)]?.focus();
    else if (at <= 0) box.current?.focus();
    else all[at - 1]?.focus();
  };

  const status =
    answer === null
      ? ''
      : 'busy' in answer
        ? t('shell.searching')
        : 'hits' in answer
          ? t('shell.hits', { count: answer.hits.length, q: answer.q })
          : '';
  const error = answer !== null && 'error' in answer ? answer.error : undefined;
  const hits = answer !== null && 'hits' in answer ? answer.hits : [];
  return (
    <search class="search" aria-label={t('shell.searchLabel')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <input
          ref={box}
          type="search"
          aria-label={t('shell.search')}
          placeholder={t('shell.searchPlaceholder')}
          required
          minLength={MIN}
          maxLength={MAX}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit">{t('shell.search')}</button>
      </form>
      <p class="sr-only" aria-live="polite" data-testid="search-status">
        {status}
      </p>
      {answer === null ? null : (
        <section class="search-hits" aria-label={t('shell.searchResults')} data-testid="search-hits">
          <p class="muted">{status}</p>
          <ErrorNote error={error} />
          {hits.length > 0 ? (
            <ul ref={list}>
              {hits.map((h) => {
                return (
                  <li key={`${h.type}-${h.id}`}>
                    <a href={`${BASE}${pathOf(h)}`} onKeyDown={onKeyDown}>
                      {TYPE_LABEL[h.type]} <code>{h.id}</code>
                    </a>
                    <span class="muted">{h.summary}</span>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <button type="button" class="link" onClick={close} onKeyDown={onKeyDown}>
            {t('shell.close')}
          </button>
        </section>
      )}
    </search>
  );
}
