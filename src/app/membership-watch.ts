import type { DeskRole } from '../../domain/roles.ts';
import type { DeskStore, TeamMember } from '../../store/index.ts';

/** How often an open desk asks the backend for its member's role (a removal sends no event). */
export const MEMBERSHIP_RECHECK_MS = 60_000;

/**
 * Whether the member list says the signed-in member's role is no longer `role`: their membership
 * holds another role, or is gone after it was seen (the list loads after the desk opens).
 */
export function membershipDrift(
  list: readonly TeamMember[],
  userId: string,
  role: DeskRole,
  seen: boolean,
): { seen: boolean; drift: boolean } {
  const mine = list.find((member) => member.userId === userId);
  if (!mine) return { seen, drift: seen };
  return { seen: true, drift: mine.role !== role };
}

/**
 * Keeps an open desk's role in step with the team: `recheck` (which reads the role from the
 * backend) runs when the synced member list shows the member's role changed or their membership
 * gone, every {@link MEMBERSHIP_RECHECK_MS} while the page is visible, and when it becomes visible
 * again — Appwrite delivers no event to a removed member, whose connection simply goes quiet.
 * Returns the cleanup.
 */
export function watchMembership(
  store: DeskStore,
  userId: string,
  role: DeskRole,
  recheck: () => void,
): () => void {
  let seen = membershipDrift(store.getState().memberList, userId, role, false).seen;
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.memberList === previous.memberList) return;
    const next = membershipDrift(state.memberList, userId, role, seen);
    seen = next.seen;
    if (next.drift) recheck();
  });
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') recheck();
  }, MEMBERSHIP_RECHECK_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible') recheck();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    unsubscribe();
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
