/** A role in the `desk` team, from least to most privileged. */
export type DeskRole = 'staff' | 'manager' | 'owner';

/** Every desk role, least privileged first. */
export const DESK_ROLES: readonly DeskRole[] = ['staff', 'manager', 'owner'];

const RANK: Record<DeskRole, number> = { staff: 0, manager: 1, owner: 2 };

/** The highest desk role among a membership's roles, or null when it holds none. */
export function highestDeskRole(roles: readonly string[]): DeskRole | null {
  let best: DeskRole | null = null;
  for (const role of roles) {
    if (isDeskRole(role) && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

/** Whether a string names a desk role. */
export function isDeskRole(role: string): role is DeskRole {
  return role === 'staff' || role === 'manager' || role === 'owner';
}

/** Whether `role` carries at least the rights of `required`. */
export function hasAtLeast(role: DeskRole | null, required: DeskRole): boolean {
  return role !== null && RANK[role] >= RANK[required];
}
