import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { validateEmail, validateName, validatePassword } from '../../../domain/validation.ts';
import { toAppError } from '../../../store/index.ts';
import { paths } from '../../lib/paths.ts';
import { Link, navigate } from '../../lib/router.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { NewPasswordField } from './new-password-field.tsx';
import { signUp } from './session.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

type Field = 'name' | 'email' | 'password';

/** `/signup`: name, email, password; field-level messages; signs in afterwards. */
export function SignupPage() {
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    email: '',
    password: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    for (const problem of [
      validateName(values.name, 'name'),
      validateEmail(values.email, 'email'),
      validatePassword(values.password, 'password'),
    ])
      if (problem) found[problem.field as Field] = problem.message;
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setFormError(null);
    try {
      await signUp(values.name, values.email, values.password);
      navigate('/', { replace: true });
    } catch (error) {
      const appError = toAppError(error);
      const field = appError.details?.field;
      if (field === 'email' || field === 'password') setErrors({ [field]: appError.message });
      else setFormError(appError.message);
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Create your account"
      footer={
        <>
          Already have one? <Link to={paths.login()}>Sign in</Link>
        </>
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={set('name')}
          error={errors.name}
          reserveMessage
          autoFocus
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          reserveMessage
        />
        <NewPasswordField
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <p className="form__error" role="alert">
          {formError}
        </p>
        <Button type="submit" variant="primary" busy={busy} className="btn--block">
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
