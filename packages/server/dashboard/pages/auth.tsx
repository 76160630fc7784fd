import { useState } from 'preact/hooks';
import { ActionStatus, ErrorNote, Field, Loading, time, useAction, useAsync } from '../../ui-kit/ui.js';
import { dash, dashWrite, type Session, setCsrf } from '../api.js';
import { Qr } from '../qr.js';
import { ForgotPassword } from './forgot.js';

/**
 * Signing in and getting in: password then a second factor (a TOTP code or a recovery code),
 * accepting an invitation (password, TOTP enrolment with its QR code, the recovery codes shown
 * once) and a password reset by one-time link. Every step answers a new session cookie.
 */

export function SignIn({ onSignedIn, ended }: { onSignedIn: (s: Session) => void; ended: boolean }) {
  const [stage, setStage] = useState<'password' | 'totp' | 'enrol'>('password');
  const [enrol, setEnrol] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<{ codes: string[]; session: Session } | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [forgot, setForgot] = useState(false);
  const action = useAction();
  return (
    <main id="main" class="signin">
      <h1>Sign in to hostpay</h1>
      {ended ? (
        <p class="notice" role="status">
          Your session has ended. Sign in again.
        </p>
      ) : null}
      {stage === 'password' && forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} />
      ) : stage === 'password' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void action.run('', async () => {
              // A half session for the second step: its CSRF token goes with the code.
              const answer = await dashWrite<StepAnswer>('POST', '/sign-in', { email, password });
              setCsrf(answer.csrfToken);
              setPassword('');
              if (answer.stage === 'enrol') setEnrol(answer);
              setStage(answer.stage);
            });
          }}
        >
          <Field label="Email">
            <input
              type="email"
              autocomplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </Field>
          <Field label="Password">
            <input
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </Field>
          <button type="submit" class="primary" disabled={action.busy}>
            Continue
          </button>
          <button type="button" class="link" onClick={() => setForgot(true)}>
            Forgot password?
          </button>
          <ErrorNote error={action.error} />
        </form>
      ) : stage === 'enrol' && enrol ? (
        codes === null ? (
          <EnrolTotp
            secret={enrol.totpSecret}
            uri={enrol.otpauthUri}
            onEnrolled={(c, s) => setCodes({ codes: c, session: s })}
          />
        ) : (
          <RecoveryCodes codes={codes.codes} onDone={() => onSignedIn(codes.session)} />
        )
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void action.run('', async () => {
              const body = recovery ? { recoveryCode: code.trim() } : { code: code.replace(/\s/g, '') };
              onSignedIn(await dashWrite<Session>('POST', '/sign-in/totp', body));
            });
          }}
        >
          {recovery ? (
            <Field label="Recovery code" hint="one of the ten codes shown when you enrolled; each works once">
              <input required autocomplete="off" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
          ) : (
            <Field label="Authentication code" hint="the 6 digits your authenticator app shows for hostpay">
              <input
                required
                inputMode="numeric"
                autocomplete="one-time-code"
                pattern="[0-9 ]{6,7}"
                value={code}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
            </Field>
          )}
          <button type="submit" class="primary" disabled={action.busy}>
            Sign in
          </button>
          <button
            type="button"
            class="link"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
            }}
          >
            {recovery ? 'Use an authentication code instead' : 'Use a recovery code instead'}
          </button>
          <ErrorNote error={action.error} />
        </form>
      )}
    </main>
  );
}

/** The answer of a first step: a half session, and for an account not yet enrolled its new TOTP secret. */
interface Enrolment {
  stage: 'enrol';
  totpSecret: string;
  otpauthUri: string;
  csrfToken: string;
}
type StepAnswer = Enrolment | { stage: 'totp'; csrfToken: string };

interface Invitation {
  email: string;
  role: string;
  merchantName: string;
  expiresAt: string;
}

/** The recovery codes, shown once: the only time anyone sees them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-labelledby="codes-h">
      <h2 id="codes-h">Your recovery codes</h2>
      <div class="secret" data-testid="recovery-codes">
        <p>
          Keep these ten codes somewhere safe: each signs you in once when your authenticator is not at hand. They are
          shown only now.
        </p>
        <ol class="codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
      </div>
      <button type="button" class="primary" onClick={onDone}>
        I have saved them: open the dashboard
      </button>
    </section>
  );
}

/** Sets a password, then enrols the authenticator: both a new user's and a reset's second half. */
function EnrolTotp({
  secret,
  uri,
  onEnrolled,
}: {
  secret: string;
  uri: string;
  onEnrolled: (codes: string[], session: Session) => void;
}) {
  const [code, setCode] = useState('');
  const action = useAction();
  return (
    <form
      class="enrol"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run('', async () => {
          const r = await dashWrite<{ recoveryCodes: string[]; session: Session }>('POST', '/totp/confirm', {
            code: code.replace(/\s/g, ''),
          });
          setCsrf(r.session.csrfToken);
          onEnrolled(r.recoveryCodes, r.session);
        });
      }}
    >
      <h2>Two-factor authentication</h2>
      <p>Scan this code with an authenticator app (any that reads TOTP QR codes), then type the 6 digits it shows.</p>
      <Qr text={uri} label="QR code of the authenticator set-up" />
      <p>
        Cannot scan? Enter this key by hand: <code data-testid="totp-secret">{secret}</code>
      </p>
      <Field label="Authentication code">
        <input
          required
          inputMode="numeric"
          autocomplete="one-time-code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        Confirm
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function NewPassword({ onSubmit, submit }: { onSubmit: (password: string) => Promise<unknown>; submit: string }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const action = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void action.run('', async () => {
          if (password !== again) throw new Error('the two passwords differ: type the same one twice');
          await onSubmit(password);
        });
      }}
    >
      <Field label="New password" hint="at least 12 characters; a passphrase is easiest">
        <input
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </Field>
      <Field label="New password again">
        <input
          type="password"
          autocomplete="new-password"
          required
          value={again}
          onInput={(e) => setAgain(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        {submit}
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

export function AcceptInvitation({ token, onDone }: { token: string; onDone: (s: Session) => void }) {
  const path = `/invitations/${encodeURIComponent(token)}`;
  // Read once: accepting uses the link up, and reading it again then would answer LINK_INVALID.
  const invitation = useAsync(() => dash<Invitation>(path), [token], { followWrites: false });
  const [totp, setTotp] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<{ codes: string[]; session: Session } | null>(null);
  const inv = invitation.data;
  return (
    <main id="main" class="signin wide">
      <h1>Join hostpay</h1>
      {invitation.loading ? <Loading what="the invitation" /> : null}
      <ErrorNote error={invitation.error} />
      {inv ? (
        <p>
          <strong>{inv.merchantName}</strong> invites <strong>{inv.email}</strong> as <strong>{inv.role}</strong>{' '}
          <span class="muted">(the invitation ends {time(inv.expiresAt)})</span>.
        </p>
      ) : null}
      {inv && totp === null ? (
        <NewPassword
          submit="Set password"
          onSubmit={async (password) => {
            const answer = await dashWrite<Enrolment>('POST', `${path}/accept`, { password });
            setCsrf(answer.csrfToken);
            setTotp(answer);
          }}
        />
      ) : null}
      {totp !== null && codes === null ? (
        <EnrolTotp
          secret={totp.totpSecret}
          uri={totp.otpauthUri}
          onEnrolled={(c, session) => setCodes({ codes: c, session })}
        />
      ) : null}
      {codes !== null ? <RecoveryCodes codes={codes.codes} onDone={() => onDone(codes.session)} /> : null}
    </main>
  );
}

export function PasswordReset({ token, onDone }: { token: string; onDone: () => void }) {
  const path = `/password-reset/${encodeURIComponent(token)}`;
  const info = useAsync(() => dash<{ email: string; expiresAt: string }>(path), [token], { followWrites: false });
  const action = useAction();
  const [done, setDone] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>Choose a new password</h1>
      <ErrorNote error={info.error} />
      {info.data ? (
        <p>
          For <strong>{info.data.email}</strong> <span class="muted">(the link ends {time(info.data.expiresAt)})</span>.
        </p>
      ) : null}
      {done ? (
        <>
          <p class="ok">Your password is changed. Sign in with it.</p>
          <button type="button" class="primary" onClick={onDone}>
            Sign in
          </button>
        </>
      ) : (
        <NewPassword
          submit="Change password"
          onSubmit={async (password) => {
            await dashWrite('POST', path, { password });
            setDone(true);
          }}
        />
      )}
      <ActionStatus action={action} />
    </main>
  );
}
