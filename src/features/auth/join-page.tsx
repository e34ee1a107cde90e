import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { toAppError } from '../../../store/index.ts';
import { navigate, useLocation } from '../../lib/router.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { acceptInvitation } from './session.ts';

/** `/join?teamId&membershipId&userId&secret`: accepts a desk invitation. */
export function JoinPage() {
  const { search } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation(new URLSearchParams(search));
      navigate('/', { replace: true });
    } catch (caught) {
      setError(toAppError(caught).message);
      setBusy(false);
    }
  };
  return (
    <AuthLayout title="Join the desk">
      <p className="prose">You were invited to work on this shop’s order desk.</p>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      <Button variant="primary" busy={busy} onClick={() => void accept()} className="btn--block">
        Accept invitation
      </Button>
    </AuthLayout>
  );
}
