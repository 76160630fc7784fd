import { useState } from 'preact/hooks';
import { ActionStatus, Field, useAction } from '../../ui-kit/ui.js';
import { dashWrite } from '../api.js';
import { t } from '../messages.js';

/** "Forgot password": mails a reset link to every account of the email (the answer is the same either way). */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const action = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(t('forgot.sent'), async () => {
          await dashWrite('POST', '/password-reset-requests', { email: email.trim() });
        });
      }}
    >
      <h2>{t('forgot.title')}</h2>
      <Field label={t('forgot.email')}>
        <input
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        {t('forgot.submit')}
      </button>
      <button type="button" class="link" onClick={onBack}>
        {t('forgot.back')}
      </button>
      <ActionStatus action={action} />
    </form>
  );
}
