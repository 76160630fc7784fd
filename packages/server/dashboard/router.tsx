import type { ComponentChildren } from 'preact';

/**
 * Client-side routes under /dashboard: the server answers the same HTML for every path below it
 * (features/dashboard/routes.ts), so every screen has a real URL that can be bookmarked and shared.
 */
export const BASE = '/dashboard';
const NAVIGATED = 'hostpay:navigated';

export const currentPath = () => location.pathname.slice(BASE.length).replace(/\/$/, '') || '/';

export function navigate(path: string): void {
  history.pushState(null, '', `${BASE}${path}`);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** Follows the address bar: links, back and forward. */
export function onNavigate(f: () => void): () => void {
  window.addEventListener(NAVIGATED, f);
  window.addEventListener('popstate', f);
  return () => {
    window.removeEventListener(NAVIGATED, f);
    window.removeEventListener('popstate', f);
  };
}

/** A plain left click on a dashboard link changes the screen without loading the page again. */
export function interceptLinks(): void {
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    const href = a?.getAttribute('href');
    if (!a || !href || a.target || !href.startsWith(`${BASE}/`) || href.startsWith(`${BASE}/api/`)) return;
    e.preventDefault();
    navigate(href.slice(BASE.length));
  });
}

export function Link({
  to,
  children,
  ...rest
}: {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  return (
    <a href={`${BASE}${to}`} {...rest}>
      {children}
    </a>
  );
}
