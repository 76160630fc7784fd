import { useState } from 'preact/hooks';
import { t } from './messages.js';

/**
 * A public URL to hand on (a payment link's /l/{slug}, an invoice's /i/{token}): the address as a
 * link, and a button that copies it. The clipboard needs a secure context and the browser's
 * consent; when it refuses, the page says so and the address is still there to select.
 */
export function CopyLink({ url, what, testId }: { url: string; what: string; testId?: string }) {
  return (
    <span class="share">
      <a href={url} class="clip" data-testid={testId} target="_blank" rel="noopener">
        {url}
      </a>
      <CopyButton url={url} what={what} />
    </span>
  );
}

/** The copy button alone (a list row's): its accessible name says whose link it copies. */
export function CopyButton({ url, what }: { url: string; what: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setSaid(t('shell.copied'));
    } catch {
      setSaid(t('shell.copyRefused'));
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {t('shell.copyLink')}
        <span class="sr-only">{t('shell.copyLinkOf', { what })}</span>
      </button>
      <span class="muted" aria-live="polite" data-testid="copied">
        {said}
      </span>
    </>
  );
}
