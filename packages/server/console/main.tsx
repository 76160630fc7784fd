import 'uplot/dist/uPlot.min.css';
import '../ui-kit/styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, maybeSignedIn, setCsrf, whenSignedOut } from './api.js';
import { t } from './messages.js';
import { AuditList } from './pages/audit.js';
import { Chains } from './pages/chains.js';
import { CheckoutDetail, CheckoutList } from './pages/checkouts.js';
import { Fees } from './pages/fees.js';
import { Keys } from './pages/keys.js';
import { MailList } from './pages/mail.js';
import { MerchantDetail, Merchants } from './pages/merchants.js';
import { Overview } from './pages/overview.js';
import { PayoutApprovals } from './pages/payout-approvals.js';
import { PayoutDetail, PayoutList } from './pages/payouts.js';
import { PostingList } from './pages/postings.js';
import { Queues } from './pages/queues.js';
import { RateSources } from './pages/rate-sources.js';
import { Reconciliation, Reports } from './pages/reports.js';
import { PaymentList } from './pages/transfers.js';
import { Webhooks } from './pages/webhooks.js';
import { ErrorNote, Field, time } from '../ui-kit/ui.js';

/**
 * The operator console: a single page over the operator API. Screens are chosen by the URL
 * fragment (#/overview, #/checkouts/chk_…), so the server serves one HTML file and every link
 * can be bookmarked.
 */
interface Session {
  operator: string;
  csrfToken: string;
  idleExpiresAt: string;
  expiresAt: string;
}

const NAV: [path: string, label: string][] = [
  ['/overview', t('shell.navOverview')],
  ['/queues', t('shell.navQueues')],
  ['/payout-approvals', t('shell.navPayoutApprovals')],
  ['/merchants', t('shell.navMerchants')],
  ['/keys', t('shell.navKeys')],
  ['/fees', t('shell.navFees')],
  ['/rate-sources', t('shell.navRateSources')],
  ['/chains', t('shell.navChains')],
  ['/webhooks', t('shell.navWebhooks')],
  ['/checkouts', t('shell.navCheckouts')],
  ['/payments', t('shell.navPayments')],
  ['/payouts', t('shell.navPayouts')],
  ['/postings', t('shell.navPostings')],
  ['/reports', t('shell.navReports')],
  ['/reconciliation', t('shell.navReconciliation')],
  ['/mail', t('shell.navMail')],
  ['/audit', t('shell.navAudit')],
];

const route = () => (location.hash.replace(/^#/, '') || '/overview').split('?')[0]!;

function Screen({ path }: { path: string }) {
  const [, section, id] = path.split('/');
  switch (section) {
    case 'queues':
      return <Queues />;
    case 'merchants':
      return id ? <MerchantDetail id={decodeURIComponent(id)} /> : <Merchants />;
    case 'keys':
      return <Keys />;
    case 'fees':
      return <Fees />;
    case 'rate-sources':
      return <RateSources />;
    case 'chains':
      return <Chains />;
    case 'webhooks':
      return <Webhooks />;
    case 'checkouts':
      return id ? <CheckoutDetail id={decodeURIComponent(id)} /> : <CheckoutList />;
    case 'payments':
      return <PaymentList />;
    case 'payout-approvals':
      return <PayoutApprovals />;
    case 'payouts':
      return id ? <PayoutDetail id={decodeURIComponent(id)} /> : <PayoutList />;
    case 'postings':
      return <PostingList />;
    case 'reports':
      return <Reports />;
    case 'reconciliation':
      return <Reconciliation />;
    case 'mail':
      return <MailList />;
    case 'audit':
      return <AuditList />;
    default:
      return <Overview />;
  }
}

function SignIn({ onSignedIn, ended }: { onSignedIn: (s: Session) => void; ended: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>{t('shell.signInTitle')}</h1>
      {ended ? (
        <p class="notice" role="status">
          {t('shell.sessionEnded')}
        </p>
      ) : null}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            onSignedIn(await call<Session>('POST', '/console/session', { token }));
            setToken('');
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label={t('shell.operatorToken')} hint={t('shell.operatorTokenHint')}>
          <input
            type="password"
            autocomplete="current-password"
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t('shell.signIn')}
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);
  const [path, setPath] = useState(route());
  useEffect(() => {
    const onHash = () => setPath(route());
    window.addEventListener('hashchange', onHash);
    whenSignedOut(() => {
      setSession(null);
      setEnded(true);
    });
    if (maybeSignedIn('hostpay_console'))
      call<Session>('GET', '/console/session').then(setSession, () => setSession(null));
    else setSession(null);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (session) setCsrf(session.csrfToken);
  }, [session]);
  useEffect(() => {
    const title = NAV.find(([p]) => path.startsWith(p))?.[1] ?? t('shell.navOverview');
    document.title = t('shell.documentTitle', { title });
  }, [path]);

  if (session === undefined) return <p class="muted">{t('shell.loading')}</p>;
  if (session === null)
    return (
      <SignIn
        ended={ended}
        onSignedIn={(s) => {
          setCsrf(s.csrfToken);
          setEnded(false);
          setSession(s);
        }}
      />
    );
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        {t('shell.skip')}
      </button>
      <header class="top">
        <span class="brand">{t('shell.brand')}</span>
        <span class="who">
          {t('shell.signedInAs')} <strong data-testid="operator">{session.operator}</strong>{' '}
          <span class="muted">{t('shell.sessionEnds', { time: time(session.expiresAt) })}</span>
        </span>
        <button
          type="button"
          onClick={async () => {
            try {
              await call('DELETE', '/console/session');
            } finally {
              setSession(null);
            }
          }}
        >
          {t('shell.signOut')}
        </button>
      </header>
      <div class="layout">
        <nav aria-label={t('shell.navLabel')} class="side">
          <ul>
            {NAV.map(([p, label]) => (
              <li key={p}>
                <a href={`#${p}`} aria-current={path.startsWith(p) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Screen path={path} key={path} />
        </main>
      </div>
    </>
  );
}

render(<App />, document.getElementById('app')!);
