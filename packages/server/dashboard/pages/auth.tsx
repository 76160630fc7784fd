import { useState } from 'preact/hooks';
import { ActionStatus, ErrorNote, Field, Loading, time, useAction, useAsync } from '../../ui-kit/ui.js';
import { dash, dashWrite, type Session, setCsrf } from '../api.js';
import { t } from '../messages.js';
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
  const askPassword = stage === 'password';
  const enrolling = stage === 'enrol' ? enrol : null;
  return (
    <main id="main" class="signin">
      <h1>{t('auth.title')}</h1>
      {ended ? (
        <p class="notice" role="status">
          {t('auth.ended')}
        </p>
      ) : null}
      {askPassword && forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} />
      ) : askPassword ? (
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
          <Field label={t('auth.email')}>
            <input
              type="email"
              autocomplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </Field>
          <Field label={t('auth.password')}>
            <input
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </Field>
          <button type="submit" class="primary" disabled={action.busy}>
            {t('auth.continue')}
          </button>
          <button type="button" class="link" onClick={() => setForgot(true)}>
            {t('auth.forgot')}
          </button>
          <ErrorNote error={action.error} />
        </form>
      ) : enrolling ? (
        codes === null ? (
          <EnrolTotp
            secret={enrolling.totpSecret}
            uri={enrolling.otpauthUri}
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
            <Field label={t('auth.recoveryCode')} hint={t('auth.recoveryCodeHint')}>
              <input required autocomplete="off" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
          ) : (
            <Field label={t('auth.code')} hint={t('auth.codeHint')}>
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
            {t('auth.signIn')}
          </button>
          <button
            type="button"
            class="link"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
            }}
          >
            {recovery ? t('auth.useCode') : t('auth.useRecovery')}
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
      <h2 id="codes-h">{t('auth.codesTitle')}</h2>
      <div class="secret" data-testid="recovery-codes">
        <p>{t('auth.codesNote')}</p>
        <ol class="codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
      </div>
      <button type="button" class="primary" onClick={onDone}>
        {t('auth.codesSaved')}
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
      <h2>{t('auth.totpTitle')}</h2>
      <p>{t('auth.totpScan')}</p>
      <Qr text={uri} label={t('auth.qrLabel')} />
      <p>
        {t('auth.cannotScan')}
        <code data-testid="totp-secret">{secret}</code>
      </p>
      <Field label={t('auth.code')}>
        <input
          required
          inputMode="numeric"
          autocomplete="one-time-code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        {t('auth.confirm')}
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
          if (password !== again) throw new Error(t('auth.passwordsDiffer'));
          await onSubmit(password);
        });
      }}
    >
      <Field label={t('auth.newPassword')} hint={t('auth.newPasswordHint')}>
        <input
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </Field>
      <Field label={t('auth.newPasswordAgain')}>
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
      <h1>{t('auth.joinTitle')}</h1>
      {invitation.loading ? <Loading what={t('auth.invitationWhat')} /> : null}
      <ErrorNote error={invitation.error} />
      {inv ? (
        <p>
          <strong>{inv.merchantName}</strong>
          {t('auth.invites')}
          <strong>{inv.email}</strong>
          {t('auth.as')}
          <strong>{inv.role}</strong>{' '}
          <span class="muted">{t('auth.invitationEnds', { time: time(inv.expiresAt) })}</span>.
        </p>
      ) : null}
      {inv && totp === null ? (
        <NewPassword
          submit={t('auth.setPassword')}
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
      <h1>{t('auth.resetTitle')}</h1>
      <ErrorNote error={info.error} />
      {info.data ? (
        <p>
          {t('auth.for')}
          <strong>{info.data.email}</strong>{' '}
          <span class="muted">{t('auth.linkEnds', { time: time(info.data.expiresAt) })}</span>.
        </p>
      ) : null}
      {done ? (
        <>
          <p class="ok">{t('auth.changed')}</p>
          <button type="button" class="primary" onClick={onDone}>
            {t('auth.signIn')}
          </button>
        </>
      ) : (
        <NewPassword
          submit={t('auth.changePassword')}
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
