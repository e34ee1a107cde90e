/** The auth feature's public surface: the sign-in screens and the session, for the app shell. */
export { JoinPage } from './join-page.tsx';
export { LoginPage } from './login-page.tsx';
export { NoMembershipPage } from './no-membership-page.tsx';
export { SignupPage } from './signup-page.tsx';
export {
  handleAuthError,
  recheckMembership,
  restoreSession,
  restoreSessionOnce,
  signOut,
  type SessionState,
  type SessionUser,
} from './session.ts';
export { useSession } from './use-session.ts';
