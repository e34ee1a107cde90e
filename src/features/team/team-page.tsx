import { useState, type FormEvent } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ErrorAlert, ErrorState, LoadingState } from '../../components/states.tsx';
import { DESK_ROLES, type DeskRole } from '../../../domain/roles.ts';
import { validateEmail, validateName } from '../../../domain/validation.ts';
import {
  selectActor,
  useDeskActions,
  useDeskStore,
  useFailure,
  useLatestFailure,
  useLoadState,
  useMembers,
  useRunning,
  useRunningWrites,
} from '../../../store/index.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

/** `/team` (owner): members and roles; change a role, remove, invite by email. */
export function TeamPage() {
  const me = useDeskStore(selectActor)?.id;
  const load = useLoadState();
  const members = useMembers();
  const running = useRunningWrites();
  const actionError = useLatestFailure('member:', 'member:new')?.error.message ?? null;
  const { changeMemberRole, removeMember } = useDeskActions();

  return (
    <div className="page page--scroll">
      <div className="page__head">
        <h1 className="page__title">Team</h1>
        <span className="page__sub">Who works the desk, and what they may do</span>
      </div>
      <InviteForm />
      <ErrorAlert message={actionError} />
      {load.status === 'error' && members.length === 0 ? (
        <ErrorState message={load.error?.message ?? 'Something went wrong.'} />
      ) : load.status !== 'ready' ? (
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
                const role = m.role ?? 'staff';
                const self = m.userId === me;
                const name = m.name;
                const busy = running[`member:${m.id}`] !== undefined;
                return (
                  <tr key={m.id} data-testid="member-row">
                    <td>
                      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                        <Avatar name={name} id={m.userId} size="sm" />
                        {name}
                        {self && <span className="tag">you</span>}
                      </span>
                    </td>
                    <td className="muted">{m.email}</td>
                    <td>
                      <select
                        className="select"
                        aria-label={`Role of ${name}`}
                        value={role}
                        disabled={self || busy}
                        onChange={(e) => void changeMemberRole(m.id, e.target.value as DeskRole)}
                      >
                        {DESK_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r[0]!.toUpperCase() + r.slice(1)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {m.confirmed ? (
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
                          busy={busy}
                          onClick={() => void removeMember(m.id)}
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

function InviteForm() {
  const { inviteMember, dismissFailure } = useDeskActions();
  const busy = useRunning('member:new') !== null;
  const failure = useFailure('member:new');
  const refusedEmail = failure?.error.details?.field === 'email' ? failure.error.message : null;
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<DeskRole>('staff');
  const [errors, setErrors] = useState<{ email?: string; name?: string }>({});
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const emailProblem = validateEmail(email);
    const nameProblem = name !== '' ? validateName(name) : null;
    setErrors({ email: emailProblem?.message, name: nameProblem?.message });
    setDone(null);
    if (emailProblem || nameProblem)
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    const result = await inviteMember({ email, name, role });
    if (!result.ok) return;
    setDone(`Invitation sent to ${email}.`);
    setEmail('');
    setName('');
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
          onChange={(e) => {
            setEmail(e.target.value);
            if (refusedEmail) dismissFailure('member:new');
          }}
          error={errors.email ?? refusedEmail ?? undefined}
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
      {failure && !refusedEmail && (
        <p className="form__error" role="alert" style={{ marginTop: 10 }}>
          {failure.error.message}
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
