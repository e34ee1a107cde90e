import { ID, Query, type Models } from 'appwrite';
import { createStore } from 'zustand/vanilla';
import { AppError } from '../../../domain/errors.ts';
import { DESK_TEAM_ID } from '../../../domain/ids.ts';
import { highestDeskRole, type DeskRole } from '../../../domain/roles.ts';
import { disconnectRealtime, sdk } from '../../lib/appwrite.ts';
import { clearSnapshots, toAppError } from '../../../store/index.ts';
import { invitationRefusal, type InvitationLink } from './invitation.ts';

/** The signed-in person as the desk knows them. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
}

/**
 * Where the session is: `loading` while restoring, `signed-out`, `ready` (with a desk role or
 * `null` when the user is not a confirmed member of the `desk` team), or `error` (backend down).
 */
export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; notice: string | null }
  | {
      status: 'ready';
      user: SessionUser;
      role: DeskRole | null;
      membershipId: string | null;
      /** The member was on the desk team when this page opened, and is no longer. */
      removed?: boolean;
    }
  | { status: 'error'; error: AppError };

/** The session store: one per tab. */
export const sessionStore = createStore<SessionState>(() => ({ status: 'loading' }));

function userOf(account: Models.User<Models.Preferences>): SessionUser {
  return { id: account.$id, name: account.name || account.email, email: account.email };
}

/** Reads the caller's membership of the `desk` team (null role when there is none yet). */
async function deskRole(
  userId: string,
): Promise<{ role: DeskRole | null; membershipId: string | null }> {
  try {
    const { memberships } = await sdk().teams.listMemberships({
      teamId: DESK_TEAM_ID,
      queries: [Query.equal('userId', userId), Query.limit(1)],
    });
    const mine = memberships.find((m) => m.userId === userId && m.confirm);
    return { role: mine ? highestDeskRole(mine.roles) : null, membershipId: mine?.$id ?? null };
  } catch (error) {
    const appError = toAppError(error);
    // Not a member: the team is invisible to the caller (404) — that is the "ask an owner" case.
    if (appError.code === 'NOT_FOUND' || appError.code === 'FORBIDDEN')
      return { role: null, membershipId: null };
    throw appError;
  }
}

/**
 * Restores the session from the backend (on load, after sign-in, on AUTH_REQUIRED). Without a
 * session (expired, revoked) or a desk role, the orders kept for a returning visit are deleted
 * before anything is shown: nobody signed in may read them.
 */
export async function restoreSession(expectedUserId: string | null = null): Promise<SessionState> {
  let state: SessionState;
  // The membership of the user expected (the last desk's) is read beside the account, not after
  // it: one round trip instead of two on a returning visit. Used only when the account is theirs.
  const expectedRole = expectedUserId === null ? null : deskRole(expectedUserId);
  expectedRole?.catch(() => {});
  try {
    const account = await sdk().account.get();
    // A shopper's guest session (the shop made it) is no one at the desk: sign in first.
    if (account.email === '') throw new AppError('AUTH_REQUIRED', 'Sign in to open the desk.');
    const user = userOf(account);
    const role =
      expectedRole !== null && user.id === expectedUserId ? expectedRole : deskRole(user.id);
    state = { status: 'ready', user, ...(await role) };
  } catch (error) {
    const appError = toAppError(error);
    state =
      appError.code === 'AUTH_REQUIRED' || appError.code === 'FORBIDDEN'
        ? { status: 'signed-out', notice: null }
        : { status: 'error', error: appError };
  }
  if (state.status === 'signed-out' || (state.status === 'ready' && state.role === null))
    await clearSnapshots().catch(() => {});
  performance.mark('livedesk:session');
  sessionStore.setState(state, true);
  return state;
}

let restoring: Promise<SessionState> | null = null;

/**
 * {@link restoreSession} as the app starts, once per page: the first call starts it (before
 * React mounts, with the user the last desk was kept for), later ones are given the same (a
 * retry calls {@link restoreSession}).
 */
export function restoreSessionOnce(expectedUserId: string | null = null): Promise<SessionState> {
  restoring ??= restoreSession(expectedUserId);
  return restoring;
}

let rechecking: Promise<void> | null = null;

/**
 * Reads the signed-in member's desk role again (a refusal, their membership changed, a minute
 * gone by); the session changes only when the role did: another role reopens the desk with it,
 * none leaves the desk (`removed`), an ended session sends the person to sign in.
 */
export function recheckMembership(): Promise<void> {
  rechecking ??= recheck().finally(() => {
    rechecking = null;
  });
  return rechecking;
}

async function recheck(): Promise<void> {
  const before = sessionStore.getState();
  if (before.status !== 'ready') return;
  let found: Awaited<ReturnType<typeof deskRole>>;
  try {
    found = await deskRole(before.user.id);
    // No role may also mean no session: the team is invisible to a signed-out caller too.
    if (found.role === null) await sdk().account.get();
  } catch (error) {
    if (toAppError(error).code === 'AUTH_REQUIRED' && sessionStore.getState() === before)
      sessionExpired();
    return;
  }
  if (sessionStore.getState() !== before) return;
  if (found.role === before.role && found.membershipId === before.membershipId) return;
  if (found.role === null) await clearSnapshots().catch(() => {});
  sessionStore.setState({ ...before, ...found, removed: found.role === null }, true);
}

/** Signs in with email and password; throws an AppError (AUTH_INVALID, …) on failure. */
export async function signIn(email: string, password: string): Promise<void> {
  const createSession = () =>
    sdk().account.createEmailPasswordSession({ email: email.trim(), password });
  try {
    await createSession();
  } catch (error) {
    // A stale session in this browser (or a shopper's guest one): drop it and try once more.
    if ((error as { type?: unknown }).type !== 'user_session_already_exists')
      throw signInRefusal(error);
    await sdk()
      .account.deleteSession({ sessionId: 'current' })
      .catch(() => {});
    await createSession().catch((again: unknown) => {
      throw signInRefusal(again);
    });
  }
  await restoreSession();
}

function signInRefusal(error: unknown): AppError {
  // Appwrite checks a password's length (8–256) before the account: a shorter one is wrong too.
  if ((error as { type?: unknown }).type === 'general_argument_invalid')
    return new AppError('AUTH_INVALID', 'Email or password is incorrect.');
  return toAppError(error);
}

/** Creates an account and signs in. */
export async function signUp(name: string, email: string, password: string): Promise<void> {
  try {
    await sdk().account.create({
      userId: ID.unique(),
      // Stored as typed: the form refused a blank name and an email with spaces.
      email,
      password,
      name,
    });
  } catch (error) {
    throw toAppError(error);
  }
  await signIn(email, password);
}

/** Signs out (ends the session and the realtime connection). */
export async function signOut(): Promise<void> {
  await sdk()
    .account.deleteSession({ sessionId: 'current' })
    .catch(() => {});
  await disconnectRealtime().catch(() => {});
  // The orders kept for a returning visit are this person's: nothing stays for the next one.
  await clearSnapshots().catch(() => {});
  sessionStore.setState({ status: 'signed-out', notice: 'You signed out.' }, true);
}

/**
 * Marks the session as ended (AUTH_REQUIRED from any call): the shell sends the person to sign
 * in, and the orders kept for a returning visit are deleted (writes still in flight refused).
 */
export function sessionExpired(): void {
  void clearSnapshots().catch(() => {});
  sessionStore.setState(
    { status: 'signed-out', notice: 'Your session has ended. Sign in again.' },
    true,
  );
}

/**
 * Sends the person to sign in when `error` says the session has ended (AUTH_REQUIRED); after a
 * refusal, reads their role again ({@link recheckMembership}).
 */
export function handleAuthError(error: AppError): void {
  if (sessionStore.getState().status !== 'ready') return;
  if (error.code === 'AUTH_REQUIRED') sessionExpired();
  // A refusal may mean "not allowed", "no longer on the team (or in this role)" or "no longer
  // signed in": ask the backend which.
  else if (error.code === 'FORBIDDEN') void recheckMembership();
}

/**
 * Accepts a desk invitation (`/join?…`), which signs the invitee in. Tells whether their account
 * still needs a password: one the invitation made has none, and could not sign in again.
 */
export async function acceptInvitation(
  link: InvitationLink,
): Promise<{ needsPassword: boolean; name: string }> {
  let account: Models.User<Models.Preferences>;
  try {
    await sdk().teams.updateMembershipStatus(link);
    account = await sdk().account.get();
  } catch (error) {
    throw invitationRefusal(error) ?? toAppError(error, 'join the desk');
  }
  await restoreSession();
  return { needsPassword: account.passwordUpdate === '', name: account.name };
}

/**
 * Gives the signed-in account the first password chosen on joining, and `name` if it is not the
 * one the invitation gave (`invitedName`).
 */
export async function completeAccount(
  name: string,
  invitedName: string,
  password: string,
): Promise<void> {
  try {
    const account = sdk().account;
    if (name !== invitedName) await account.updateName({ name });
    await account.updatePassword({ password });
  } catch (error) {
    throw toAppError(error, 'change this account');
  }
  await restoreSession();
}
