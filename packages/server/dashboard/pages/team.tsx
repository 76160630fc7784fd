import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import {
  ActionStatus,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
} from '../../ui-kit/ui.js';
import { dash, dashWrite, manages, type Role, type Session } from '../api.js';

interface TeamAnswer {
  users: { id: string; email: string; role: Role; createdAt: string; lastSignInAt: string | null }[];
  invitations: { id: string; email: string; role: Role; expiresAt: string }[];
}
const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer'];
const ROLE_HELP =
  'owner and admin: everything; developer: keys, webhooks, checkouts, reading the rest; viewer: reading only';

/** The merchant's users and pending invitations; owners change roles and remove users, owners and admins invite. */
export function Team({ session }: { session: Session }) {
  const team = useAsync(() => dash<TeamAnswer>('/team'), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [link, setLink] = useState<string | null>(null);
  const action = useAction();
  const confirm = useConfirm();
  const owner = session.role === 'owner';
  return (
    <>
      <h1>Team</h1>
      <ErrorNote error={team.error} />
      {manages(session) ? (
        <ActionForm
          action={action}
          id="invite-h"
          title="Invite someone"
          submit="Create invitation"
          status={false}
          onSubmit={() =>
            action.run('Invitation created.', async () => {
              const r = await dashWrite<{ link: string }>('POST', '/team/invitations', { email: email.trim(), role });
              setLink(r.link);
              setEmail('');
            })
          }
        >
          <div class="grid">
            <Field label="Email">
              <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label="Role" hint={ROLE_HELP}>
              <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
                {ROLES.filter((r) => owner || r !== 'owner').map((r) => (
                  <option value={r} key={r}>
                    {r}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        </ActionForm>
      ) : null}
      {link ? (
        <div class="secret" data-testid="team-link">
          <p>Send this one-time link to them (shown only now):</p>
          <code>{link}</code>
        </div>
      ) : null}
      <ActionStatus action={action} />
      {confirm.dialog}
      {team.data === undefined ? (
        team.error ? null : (
          <Loading what="the team" />
        )
      ) : (
        <>
          <h2>Users</h2>
          <Table
            caption="Users"
            rows={team.data.users}
            rowKey={(u) => u.id}
            columns={[
              { label: 'Email', render: (u) => u.email },
              {
                label: 'Role',
                render: (u) =>
                  owner && u.id !== session.user.id ? (
                    <select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      onChange={(e) => {
                        const next = e.currentTarget.value;
                        void action.run(`${u.email} is now ${next}.`, () =>
                          dashWrite('PATCH', `/team/users/${u.id}`, { role: next }),
                        );
                      }}
                    >
                      {ROLES.map((r) => (
                        <option value={r} key={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    u.role
                  ),
              },
              { label: 'Last sign-in', render: (u) => time(u.lastSignInAt) },
              {
                label: 'Actions',
                render: (u) =>
                  owner && u.id !== session.user.id ? (
                    <div class="row-actions">
                      <button
                        type="button"
                        onClick={() =>
                          void action.run(`A password-reset link for ${u.email} (shown once, 24 h).`, async () => {
                            const r = await dashWrite<{ link: string }>('POST', `/team/users/${u.id}/reset-link`);
                            setLink(r.link);
                          })
                        }
                      >
                        Reset link <span class="sr-only">for {u.email}</span>
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() =>
                          confirm.ask({
                            title: `Remove ${u.email}?`,
                            body: <p>Their sessions end and they can no longer sign in.</p>,
                            confirm: 'Remove user',
                            danger: true,
                            action: () => action.run('User removed.', () => dashWrite('DELETE', `/team/users/${u.id}`)),
                          })
                        }
                      >
                        Remove <span class="sr-only">{u.email}</span>
                      </button>
                    </div>
                  ) : null,
              },
            ]}
          />
          <h2>Pending invitations</h2>
          <Table
            caption="Pending invitations"
            rows={team.data.invitations}
            rowKey={(i) => i.id}
            empty="No pending invitation."
            columns={[
              { label: 'Email', render: (i) => i.email },
              { label: 'Role', render: (i) => i.role },
              { label: 'Ends', render: (i) => time(i.expiresAt) },
              {
                label: 'Actions',
                render: (i) =>
                  manages(session) ? (
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        void action.run('Invitation withdrawn.', () => dashWrite('DELETE', `/team/invitations/${i.id}`))
                      }
                    >
                      Withdraw <span class="sr-only">invitation of {i.email}</span>
                    </button>
                  ) : null,
              },
            ]}
          />
        </>
      )}
    </>
  );
}
