import '../ui-kit/styles.css';
import './dashboard.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { time } from '../ui-kit/ui.js';
import { can, dash, dashWrite, develops, manages, maybeSignedIn, type Session, setCsrf, whenSignedOut } from './api.js';
import { followEvents } from './live.js';
import { t } from './messages.js';
import { AcceptInvitation, PasswordReset, SignIn } from './pages/auth.js';
import { CheckoutDetail, CheckoutList, NewCheckout } from './pages/checkouts.js';
import { Events } from './pages/events.js';
import { Home } from './pages/home.js';
import { NewInvoice } from './pages/invoice-form.js';
import { InvoiceDetail, InvoiceList } from './pages/invoices.js';
import { NewLink } from './pages/link-form.js';
import { LinkDetail, LinkList } from './pages/links.js';
import { ApiKeys } from './pages/keys.js';
import { PayoutDetail } from './pages/payout-detail.js';
import { Payouts } from './pages/payouts.js';
import { Reports } from './pages/reports.js';
import { SecurityLog } from './pages/security.js';
import { Settings } from './pages/settings.js';
import { Notifications } from './pages/notifications.js';
import { Team } from './pages/team.js';
import { Webhooks } from './pages/webhooks.js';
import { BASE, currentPath, interceptLinks, Link, navigate, onNavigate } from './router.js';
import { TopSearch } from './search.js';

/**
 * The merchant dashboard: one page over the merchant API and the account routes, signed in with
 * a session (password and a second factor). Screens follow the path under /dashboard; a menu
 * entry shows only when the session's role may use it (the server refuses the rest anyway).
 */
const NAV: [path: string, label: string, shown: (s: Session) => boolean][] = [
  ['/', t('shell.navHome'), () => true],
  ['/checkouts', t('shell.navCheckouts'), (s) => can(s, 'checkout:read')],
  ['/links', t('shell.navLinks'), (s) => can(s, 'links:read')],
  ['/invoices', t('shell.navInvoices'), (s) => can(s, 'invoices:read')],
  ['/payouts', t('shell.navPayouts'), (s) => can(s, 'payouts:read')],
  ['/reports', t('shell.navReports'), (s) => can(s, 'reports:read')],
  ['/keys', t('shell.navKeys'), develops],
  ['/webhooks', t('shell.navWebhooks'), (s) => can(s, 'webhooks:write')],
  ['/events', t('shell.navEvents'), (s) => can(s, 'events:read')],
  ['/settings', t('shell.navSettings'), () => true],
  ['/notifications', t('shell.navNotifications'), () => true],
  ['/team', t('shell.navTeam'), () => true],
  ['/security', t('shell.navSecurity'), manages],
];

const active = (path: string, p: string) => (p === '/' ? path === '/' : path === p || path.startsWith(`${p}/`));

function Screen({ path, session }: { path: string; session: Session }) {
  const [, section, id] = path.split('/');
  switch (section) {
    case 'checkouts':
      if (id === 'new') return <NewCheckout session={session} />;
      return id ? <CheckoutDetail id={decodeURIComponent(id)} session={session} /> : <CheckoutList session={session} />;
    case 'links':
      if (id === 'new') return <NewLink session={session} />;
      return id ? <LinkDetail id={decodeURIComponent(id)} session={session} /> : <LinkList session={session} />;
    case 'invoices':
      if (id === 'new') return <NewInvoice session={session} />;
      return id ? <InvoiceDetail id={decodeURIComponent(id)} session={session} /> : <InvoiceList session={session} />;
    case 'payouts':
      return id ? <PayoutDetail id={decodeURIComponent(id)} /> : <Payouts session={session} />;
    case 'reports':
      return <Reports session={session} />;
    case 'keys':
      return <ApiKeys session={session} />;
    case 'webhooks':
      return <Webhooks />;
    case 'events':
      return <Events session={session} />;
    case 'settings':
      return <Settings session={session} />;
    case 'notifications':
      return <Notifications />;
    case 'team':
      return <Team session={session} />;
    case 'security':
      return <SecurityLog />;
    default:
      return <Home session={session} />;
  }
}

function Shell({ session, path, onSignedOut }: { session: Session; path: string; onSignedOut: () => void }) {
  // Checkouts, payouts, invoices and links change while the page is open: every event reloads what is on screen.
  useEffect(() => followEvents(), []);
  return (
    <>
      <a class="skip" href="#main">
        {t('shell.skip')}
      </a>
      <header class="top">
        <span class="brand">{session.merchant.name}</span>
        {can(session, 'checkout:read') || can(session, 'payouts:read') ? <TopSearch /> : null}
        <span class="who">
          <span data-testid="user">{session.user.email}</span> <span class="muted">({session.role})</span>
        </span>
        <button
          type="button"
          onClick={async () => {
            try {
              await dashWrite('POST', '/sign-out');
            } finally {
              onSignedOut();
            }
          }}
        >
          {t('shell.signOut')}
        </button>
      </header>
      <div class="layout">
        <nav aria-label={t('shell.navLabel')} class="side">
          <ul>
            {NAV.filter(([, , shown]) => shown(session)).map(([p, label]) => (
              <li key={p}>
                <Link to={p} aria-current={active(path, p) ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Screen path={path} session={session} key={path} />
          <p class="muted foot">{t('shell.sessionEnds', { time: time(session.expiresAt) })}</p>
        </main>
      </div>
    </>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    interceptLinks();
    const off = onNavigate(() => {
      setPath(currentPath());
      // A new screen: focus goes to its content, as a page load would put it at the top.
      requestAnimationFrame(() => document.getElementById('main')?.focus());
    });
    whenSignedOut(() => {
      setSession(null);
      setEnded(true);
    });
    if (maybeSignedIn('hp_session')) dash<Session>('/session').then(setSession, () => setSession(null));
    else setSession(null);
    return off;
  }, []);
  useEffect(() => {
    if (session) setCsrf(session.csrfToken);
  }, [session]);
  useEffect(() => {
    const title = [...NAV].reverse().find(([p]) => active(path, p))?.[1] ?? t('shell.navHome');
    document.title = t('shell.documentTitle', { title });
  }, [path]);

  const signedIn = (s: Session) => {
    setCsrf(s.csrfToken);
    setEnded(false);
    setSession(s);
  };
  const [, section, token] = path.split('/');
  if (section === 'invitation' && token)
    return (
      <AcceptInvitation
        token={decodeURIComponent(token)}
        onDone={(s) => {
          signedIn(s);
          navigate('/');
        }}
      />
    );
  if (section === 'password-reset' && token)
    return (
      <PasswordReset
        token={decodeURIComponent(token)}
        onDone={() => {
          // A reset ends every session of the user: sign in again with the new password.
          setSession(null);
          navigate('/');
        }}
      />
    );
  if (session === undefined) return <p class="muted">{t('shell.loading')}</p>;
  if (session === null) return <SignIn ended={ended} onSignedIn={signedIn} />;
  return <Shell session={session} path={path} onSignedOut={() => setSession(null)} />;
}

if (!location.pathname.startsWith(BASE)) history.replaceState(null, '', BASE);
render(<App />, document.getElementById('app')!);
