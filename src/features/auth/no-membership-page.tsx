import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { restoreSession, signOut, type SessionUser } from './session.ts';

/** Signed in but not (yet) on the desk team: say what to do. */
export function NoMembershipPage({ user }: { user: SessionUser }) {
  const [busy, setBusy] = useState(false);
  return (
    <AuthLayout title="You’re not on the desk yet">
      <p className="prose">
        You’re signed in as <strong>{user.email}</strong>, but this account isn’t a member of the
        desk team. Ask an owner to add you; if you got an invitation link, open it to join.
      </p>
      <div className="row-actions">
        <Button
          variant="primary"
          busy={busy}
          onClick={() => {
            setBusy(true);
            void restoreSession().finally(() => setBusy(false));
          }}
        >
          Check again
        </Button>
        <Button variant="ghost" onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
    </AuthLayout>
  );
}
