import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { validateEmail } from '../../../domain/validation.ts';
import { toAppError } from '../../../store/index.ts';
import { paths, safeRedirect } from '../../lib/paths.ts';
import { Link, navigate, useLocation } from '../../lib/router.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { signIn } from './session.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

/** `/login`: email + password; errors inline; back to `redirectTo` afterwards. */
export function LoginPage({ notice }: { notice?: string | null }) {
  const { search } = useLocation();
  const redirectTo = safeRedirect(new URLSearchParams(search).get('redirectTo'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setEmailError(invalid?.message ?? null);
    if (invalid || !password) {
      if (!password) setFormError('Enter your password.');
      focusFirstInvalid(event.currentTarget as HTMLFormElement, 'input[type="password"]');
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      await signIn(email, password);
      navigate(redirectTo, { replace: true });
    } catch (error) {
      setFormError(toAppError(error).message);
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Sign in to the desk"
      footer={
        <>
          New here? <Link to={paths.signup}>Create an account</Link>
        </>
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={emailError}
          reserveMessage
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {/* Always there (a line reserved), so a message appearing moves nothing. */}
        <p className="form__error" role="alert" data-testid="form-error">
          {formError}
        </p>
        <Button type="submit" variant="primary" busy={busy} className="btn--block">
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
