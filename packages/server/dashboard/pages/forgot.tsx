import { useState } from 'preact/hooks';
import { ActionStatus, Field, useAction } from '../../ui-kit/ui.js';
import { dashWrite } from '../api.js';

/** "Forgot password": mails a reset link to every account of the email (the answer is the same either way). */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const action = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(
          'If an account of this email exists, a reset link is on its way: check your mail.',
          async () => {
            await dashWrite('POST', '/password-reset-requests', { email: email.trim() });
          },
        );
      }}
    >
      <h2>Forgot your password?</h2>
      <Field label="Email of your account">
        <input
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={action.busy}>
        Mail me a reset link
      </button>
      <button type="button" class="link" onClick={onBack}>
        Back to sign-in
      </button>
      <ActionStatus action={action} />
    </form>
  );
}
