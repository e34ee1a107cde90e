import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { restoreSession, signOut, type SessionUser } from './session.ts';

/** Signed in but not (yet, or no longer) on the desk team: say what to do. */
export function NoMembershipPage({ user, removed }: { user: SessionUser; removed: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <AuthLayout title={removed ? 'You’re no longer on the desk' : 'You’re not on the desk yet'}>
      {removed ? (
        <p className="prose">
          <strong>{user.email}</strong> was removed from the desk team, so the desk closed. Ask an
          owner if this is a mistake.
        </p>
      ) : (
        <p className="prose">
          You’re signed in as <strong>{user.email}</strong>, but this account isn’t a member of the
          desk team. Ask an owner to add you; if you got an invitation link, open it to join.
        </p>
      )}
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
