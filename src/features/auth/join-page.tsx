import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import type { AppError } from '../../../domain/errors.ts';
import { validateName, validatePassword } from '../../../domain/validation.ts';
import { toAppError } from '../../../store/index.ts';
import { paths } from '../../lib/paths.ts';
import { Link, navigate, useLocation } from '../../lib/router.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { NewPasswordField } from './new-password-field.tsx';
import { parseInvitationLink, refusalReason } from './invitation.ts';
import { acceptInvitation, completeAccount, signOut } from './session.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

/**
 * `/join?teamId&membershipId&userId&secret`: accepts a desk invitation, then asks a person the
 * invitation made an account for to choose a password (they could not sign in again without one).
 */
export function JoinPage() {
  const { search } = useLocation();
  const [account, setAccount] = useState<{ name: string } | null>(null);
  return account ? (
    <ChoosePassword name={account.name} />
  ) : (
    <AcceptInvitation
      search={search}
      onAccepted={(result) => {
        if (result.needsPassword) setAccount({ name: result.name });
        else navigate('/', { replace: true });
      }}
    />
  );
}

function AcceptInvitation({
  search,
  onAccepted,
}: {
  search: string;
  onAccepted: (result: { needsPassword: boolean; name: string }) => void;
}) {
  const link = parseInvitationLink(search);
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    if (!link) return;
    setBusy(true);
    setError(null);
    try {
      onAccepted(await acceptInvitation(link));
    } catch (caught) {
      setError(toAppError(caught));
      setBusy(false);
    }
  };
  const reason = error ? refusalReason(error) : null;
  return (
    <AuthLayout title="Join the desk">
      <p className="prose">You were invited to work on this shop’s order desk.</p>
      {!link ? (
        <p className="form__error" role="alert">
          This invitation link is incomplete. Open the whole link from your invitation.
        </p>
      ) : (
        <>
          {error && (
            <p className="form__error" role="alert">
              {error.message}
            </p>
          )}
          {reason === 'accepted' ? (
            <Link to={paths.login()} className="btn btn--primary btn--md btn--block">
              Sign in
            </Link>
          ) : reason === 'other-account' ? (
            <Button
              className="btn--block"
              onClick={() => void signOut().then(() => setError(null))}
            >
              Sign out
            </Button>
          ) : reason === null ? (
            <Button
              variant="primary"
              busy={busy}
              onClick={() => void accept()}
              className="btn--block"
            >
              Accept invitation
            </Button>
          ) : null}
        </>
      )}
    </AuthLayout>
  );
}

function ChoosePassword({ name: invitedName }: { name: string }) {
  const [name, setName] = useState(invitedName);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      name: validateName(name, 'name')?.message,
      password: validatePassword(password, 'password')?.message,
    };
    setErrors(found);
    if (found.name || found.password)
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setFormError(null);
    try {
      await completeAccount(name, invitedName, password);
      navigate('/', { replace: true });
    } catch (caught) {
      const error = toAppError(caught);
      if (error.details?.field === 'password') setErrors({ password: error.message });
      else setFormError(error.message);
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Choose your password">
      <p className="prose">
        You’re on the desk. Choose a password: you sign in with it and your email next time.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          reserveMessage
        />
        <NewPasswordField
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          autoFocus
        />
        <p className="form__error" role="alert">
          {formError}
        </p>
        <Button type="submit" variant="primary" busy={busy} className="btn--block">
          Save and open the desk
        </Button>
      </form>
    </AuthLayout>
  );
}
