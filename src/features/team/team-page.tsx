import { Query, type Models } from 'appwrite';
import { useState, type FormEvent } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { DESK_TEAM_ID } from '../../../domain/ids.ts';
import { DESK_ROLES, highestDeskRole, type DeskRole } from '../../../domain/roles.ts';
import { validateEmail, validateName } from '../../../domain/validation.ts';
import { sdk } from '../../lib/appwrite.ts';
import { toAppError } from '../../../store/appwrite/errors.ts';
import { useManagedList } from '../admin/use-managed-list.ts';
import { useMember } from '../auth/use-session.ts';

type Membership = Models.Membership;

async function fetchMembers(): Promise<Membership[]> {
  const { memberships } = await sdk().teams.listMemberships({
    teamId: DESK_TEAM_ID,
    queries: [Query.limit(100)],
  });
  return memberships.sort((a, b) =>
    (a.userName || a.userEmail).localeCompare(b.userName || b.userEmail),
  );
}

/** `/team` (owner): members and roles; change a role, remove, invite by email. */
export function TeamPage() {
  const { user } = useMember();
  const {
    items: members,
    loadError,
    reload,
    busy,
    actionError,
    act,
  } = useManagedList(fetchMembers, 'view the team');

  const changeRole = (membership: Membership, role: DeskRole) =>
    act(
      membership.$id,
      () =>
        sdk().teams.updateMembership({
          teamId: DESK_TEAM_ID,
          membershipId: membership.$id,
          roles: [role],
        }),
      'change roles',
    );
  const remove = (membership: Membership) =>
    act(
      membership.$id,
      () => sdk().teams.deleteMembership({ teamId: DESK_TEAM_ID, membershipId: membership.$id }),
      'remove members',
    );

  return (
    <div className="page page--scroll">
      <div className="page__head">
        <h1 className="page__title">Team</h1>
        <span className="page__sub">Who works the desk, and what they may do</span>
      </div>
      <InviteForm onInvited={reload} />
      {actionError && (
        <div className="alert alert--error" role="alert">
          {actionError}
        </div>
      )}
      {loadError ? (
        <ErrorState message={loadError.message} onRetry={() => void reload()} />
      ) : members === null ? (
        <LoadingState label="Loading the team…" />
      ) : (
        <div className="list">
          <table aria-label="Team members">
            <thead>
              <tr>
                <th>Member</th>
                <th>Email</th>
                <th>Role</th>
                <th>Status</th>
                <th className="right">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const role = highestDeskRole(m.roles) ?? 'staff';
                const self = m.userId === user.id;
                const name = m.userName || m.userEmail;
                return (
                  <tr key={m.$id} data-testid="member-row">
                    <td>
                      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                        <Avatar name={name} id={m.userId} size="sm" />
                        {name}
                        {self && <span className="tag">you</span>}
                      </span>
                    </td>
                    <td className="muted">{m.userEmail}</td>
                    <td>
                      <select
                        className="select"
                        aria-label={`Role of ${name}`}
                        value={role}
                        disabled={self || busy === m.$id}
                        onChange={(e) => void changeRole(m, e.target.value as DeskRole)}
                      >
                        {DESK_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r[0]!.toUpperCase() + r.slice(1)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {m.confirm ? (
                        <span className="tag tag--ok">active</span>
                      ) : (
                        <span className="tag tag--warn">invited</span>
                      )}
                    </td>
                    <td className="right">
                      {!self && (
                        <Button
                          size="sm"
                          variant="danger"
                          busy={busy === m.$id}
                          onClick={() => void remove(m)}
                          aria-label={`Remove ${name}`}
                        >
                          Remove
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<DeskRole>('staff');
  const [errors, setErrors] = useState<{ email?: string; name?: string; form?: string }>({});
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const emailProblem = validateEmail(email);
    const nameProblem = name.trim() ? validateName(name) : null;
    setErrors({ email: emailProblem?.message, name: nameProblem?.message });
    setDone(null);
    if (emailProblem || nameProblem) return;
    setBusy(true);
    try {
      await sdk().teams.createMembership({
        teamId: DESK_TEAM_ID,
        roles: [role],
        email: email.trim(),
        name: name.trim() || undefined,
        url: `${location.origin}/join`,
      });
      setDone(`Invitation sent to ${email.trim()}.`);
      setEmail('');
      setName('');
      await onInvited();
    } catch (error) {
      setErrors({ form: toAppError(error, 'invite members').message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="invite-title"
    >
      <h2 className="panel__title" id="invite-title">
        Invite someone
      </h2>
      <div className="grid-form">
        <TextField
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <TextField
          label="Name (optional)"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <div className="field">
          <label className="field__label" htmlFor="invite-role">
            Role
          </label>
          <select
            id="invite-role"
            className="select"
            value={role}
            onChange={(e) => setRole(e.target.value as DeskRole)}
          >
            {DESK_ROLES.map((r) => (
              <option key={r} value={r}>
                {r[0]!.toUpperCase() + r.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" busy={busy}>
          Send invitation
        </Button>
      </div>
      {errors.form && (
        <p className="form__error" role="alert" style={{ marginTop: 10 }}>
          {errors.form}
        </p>
      )}
      {done && (
        <p className="muted" role="status" style={{ marginTop: 10, fontSize: 13 }}>
          {done} They appear below as “invited” until they accept.
        </p>
      )}
    </form>
  );
}
