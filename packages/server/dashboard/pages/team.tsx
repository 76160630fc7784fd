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
import { t } from '../messages.js';

interface TeamAnswer {
  users: { id: string; email: string; role: Role; createdAt: string; lastSignInAt: string | null }[];
  invitations: { id: string; email: string; role: Role; expiresAt: string }[];
}
const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer'];
const ROLE_HELP = t('team.roleHelp');

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
      <h1>{t('team.title')}</h1>
      <ErrorNote error={team.error} />
      {manages(session) ? (
        <ActionForm
          action={action}
          id="invite-h"
          title={t('team.inviteTitle')}
          submit={t('team.invite')}
          status={false}
          onSubmit={() =>
            action.run(t('team.invited'), async () => {
              const r = await dashWrite<{ link: string }>('POST', '/team/invitations', { email: email.trim(), role });
              setLink(r.link);
              setEmail('');
            })
          }
        >
          <div class="grid">
            <Field label={t('team.email')}>
              <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label={t('team.role')} hint={ROLE_HELP}>
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
          <p>{t('team.sendLink')}</p>
          <code>{link}</code>
        </div>
      ) : null}
      <ActionStatus action={action} />
      {confirm.dialog}
      {team.data === undefined ? (
        team.error ? null : (
          <Loading what={t('team.what')} />
        )
      ) : (
        <>
          <h2>{t('team.users')}</h2>
          <Table
            caption={t('team.users')}
            rows={team.data.users}
            rowKey={(u) => u.id}
            columns={[
              { label: t('team.email'), render: (u) => u.email },
              {
                label: t('team.role'),
                render: (u) =>
                  owner && u.id !== session.user.id ? (
                    <select
                      aria-label={t('team.roleOf', { email: u.email })}
                      value={u.role}
                      onChange={(e) => {
                        const next = e.currentTarget.value;
                        void action.run(t('team.roleChanged', { email: u.email, role: next }), () =>
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
              { label: t('team.lastSignIn'), render: (u) => time(u.lastSignInAt) },
              {
                label: t('team.actions'),
                render: (u) =>
                  owner && u.id !== session.user.id ? (
                    <div class="row-actions">
                      <button
                        type="button"
                        onClick={() =>
                          void action.run(t('team.resetLinkMade', { email: u.email }), async () => {
                            const r = await dashWrite<{ link: string }>('POST', `/team/users/${u.id}/reset-link`);
                            setLink(r.link);
                          })
                        }
                      >
                        {t('team.resetLink')} <span class="sr-only">{t('team.forEmail', { email: u.email })}</span>
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() =>
                          confirm.ask({
                            title: t('team.removeTitle', { email: u.email }),
                            body: <p>{t('team.removeBody')}</p>,
                            confirm: t('team.removeUser'),
                            danger: true,
                            action: () =>
                              action.run(t('team.removed'), () => dashWrite('DELETE', `/team/users/${u.id}`)),
                          })
                        }
                      >
                        {t('team.remove')} <span class="sr-only">{u.email}</span>
                      </button>
                    </div>
                  ) : null,
              },
            ]}
          />
          <h2>{t('team.pending')}</h2>
          <Table
            caption={t('team.pending')}
            rows={team.data.invitations}
            rowKey={(i) => i.id}
            empty={t('team.noPending')}
            columns={[
              { label: t('team.email'), render: (i) => i.email },
              { label: t('team.role'), render: (i) => i.role },
              { label: t('team.ends'), render: (i) => time(i.expiresAt) },
              {
                label: t('team.actions'),
                render: (i) =>
                  manages(session) ? (
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        void action.run(t('team.withdrawn'), () => dashWrite('DELETE', `/team/invitations/${i.id}`))
                      }
                    >
                      {t('team.withdraw')} <span class="sr-only">{t('team.invitationOf', { email: i.email })}</span>
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
