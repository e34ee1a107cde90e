import type { ComponentProps } from 'react';
import { TextField } from '../../components/field.tsx';

/** The password a new account will sign in with (sign-up, joining the desk): 8–256 characters. */
export function NewPasswordField(
  props: Omit<
    ComponentProps<typeof TextField>,
    'label' | 'type' | 'name' | 'autoComplete' | 'hint'
  >,
) {
  return (
    <TextField
      label="Password"
      type="password"
      name="password"
      autoComplete="new-password"
      hint="At least 8 characters."
      {...props}
    />
  );
}
