import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { ErrorNote, Field, Loading, useAction, useAsync } from '../../ui-kit/ui.js';
import { dash, dashWrite, manages, type Session } from '../api.js';

interface MerchantSettings {
  displayName: string | null;
  logoUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
}

/**
 * What the payment page shows (display name, logo) and where it sends the payer by default; and
 * the user's own password and sessions.
 */
export function Settings({ session }: { session: Session }) {
  const settings = useAsync(() => dash<MerchantSettings>('/settings'), []);
  return (
    <>
      <h1>Settings</h1>
      <ErrorNote error={settings.error} />
      {settings.data === undefined && !settings.error ? <Loading what="settings" /> : null}
      {/* The form appears with the stored values, never before: typed into an empty form while the
          values load, a field would be overwritten by them (and saved that way). */}
      {settings.data === undefined ? null : <PaymentPageForm stored={settings.data} editable={manages(session)} />}
      <ChangePassword />
      <SignOutEverywhere />
    </>
  );
}

function PaymentPageForm({ stored, editable }: { stored: MerchantSettings; editable: boolean }) {
  const [form, setForm] = useState(() => ({
    displayName: stored.displayName ?? '',
    logoUrl: stored.logoUrl ?? '',
    successUrl: stored.successUrl ?? '',
    cancelUrl: stored.cancelUrl ?? '',
  }));
  const action = useAction();
  const input = (k: keyof MerchantSettings, url = false) => (
    <input
      inputMode={url ? 'url' : 'text'}
      readOnly={!editable}
      maxLength={k === 'displayName' ? 100 : k === 'logoUrl' ? 65536 : 2048}
      value={form[k]}
      onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })}
    />
  );
  return (
    <ActionForm
      action={action}
      id="page-h"
      title="Payment page"
      submit={editable ? 'Save settings' : undefined}
      onSubmit={() =>
        editable &&
        action.run('Settings saved.', () =>
          dashWrite('PATCH', '/settings', {
            displayName: form.displayName.trim() || null,
            logoUrl: form.logoUrl.trim() || null,
            successUrl: form.successUrl.trim() || null,
            cancelUrl: form.cancelUrl.trim() || null,
          }),
        )
      }
    >
      <Field label="Display name" hint="shown to payers on the payment page">
        {input('displayName')}
      </Field>
      <Field label="Logo URL" hint="https, or a small image picked below (kept in the page itself)">
        {input('logoUrl', true)}
      </Field>
      {editable ? (
        <Field label="Logo image" hint="PNG, JPEG or WebP, up to about 48 KB">
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (!file) return;
              // Read here into a data: URL: the image needs no host, and the page's CSP allows data: images.
              const reader = new FileReader();
              reader.onload = () => setForm((f) => ({ ...f, logoUrl: String(reader.result) }));
              reader.readAsDataURL(file);
            }}
          />
        </Field>
      ) : null}
      {form.logoUrl.startsWith('data:image/') ? (
        <img class="logo-preview" src={form.logoUrl} alt="The logo payers will see" />
      ) : null}
      <Field label="Default success URL" hint="where payers go after paying, unless a checkout names one">
        {input('successUrl', true)}
      </Field>
      <Field label="Default cancel URL">{input('cancelUrl', true)}</Field>
      {editable ? null : <p class="muted">Owners and admins change these.</p>}
    </ActionForm>
  );
}

function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const action = useAction();
  return (
    <ActionForm
      action={action}
      id="pw-h"
      title="Your password"
      submit="Change password"
      primary={false}
      onSubmit={() =>
        action.run('Password changed.', async () => {
          await dashWrite('POST', '/password', { currentPassword, newPassword });
          setCurrent('');
          setNew('');
        })
      }
    >
      <div class="grid">
        <Field label="Current password">
          <input
            type="password"
            autocomplete="current-password"
            required
            value={currentPassword}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </Field>
        <Field label="New password" hint="at least 12 characters">
          <input
            type="password"
            autocomplete="new-password"
            required
            minLength={12}
            value={newPassword}
            onInput={(e) => setNew(e.currentTarget.value)}
          />
        </Field>
      </div>
    </ActionForm>
  );
}

function SignOutEverywhere() {
  const action = useAction();
  return (
    <section class="card-form" aria-labelledby="everywhere-h">
      <h2 id="everywhere-h">Sessions</h2>
      <p>Signed in on a computer you no longer use? End every session of your account, this one included.</p>
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={() =>
          void action.run('Signed out everywhere.', async () => {
            await dashWrite('POST', '/sign-out-everywhere');
            location.assign('/dashboard');
          })
        }
      >
        Sign out everywhere
      </button>
      <ErrorNote error={action.error} />
    </section>
  );
}
