import { DESK_TEAM_ID } from '../../domain/ids.ts';
import { highestDeskRole, type DeskRole } from '../../domain/roles.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import type { FieldError } from '../../domain/validation.ts';

/** A membership of the desk team (Appwrite's Membership model, as the store keeps it). */
export interface TeamMember {
  /** The membership id. */
  id: string;
  createdAt: number;
  updatedAt: number;
  userId: string;
  /** The member's name, else their email. */
  name: string;
  email: string;
  /** The highest desk role the membership holds, or null. */
  role: DeskRole | null;
  /** Accepted (an invitation not yet accepted is unconfirmed). */
  confirmed: boolean;
}

/** Someone's presence (Appwrite presences): who, and which order they are looking at. */
export interface PresenceEntry {
  /** The presence id. */
  id: string;
  updatedAt: number;
  userId: string;
  name: string;
  orderId: string | null;
  status: string | null;
}

/** The fields of a membership the store reads (Appwrite's Membership model). */
interface MembershipDocument extends DocumentMeta {
  teamId?: unknown;
  userId?: unknown;
  userName?: unknown;
  userEmail?: unknown;
  roles?: unknown;
  confirm?: unknown;
}

/** The fields of a presence the store reads (Appwrite's Presence model). */
interface PresenceDocument extends DocumentMeta {
  userId?: unknown;
  status?: unknown;
  metadata?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A membership of the desk team as a {@link TeamMember}; null for another team's. */
export function memberFromDocument(doc: DocumentMeta): TeamMember | null {
  const membership = doc as MembershipDocument;
  if (membership.teamId !== undefined && membership.teamId !== DESK_TEAM_ID) return null;
  const email = text(membership.userEmail);
  return {
    id: membership.$id,
    createdAt: Date.parse(membership.$createdAt),
    updatedAt: Date.parse(membership.$updatedAt),
    userId: text(membership.userId),
    name: text(membership.userName) || email,
    email,
    role: Array.isArray(membership.roles)
      ? highestDeskRole(membership.roles.filter((r): r is string => typeof r === 'string'))
      : null,
    confirmed: membership.confirm === true,
  };
}

/** A presence as a {@link PresenceEntry}: `metadata.name` and `metadata.orderId` as announced. */
export function presenceFromDocument(doc: DocumentMeta): PresenceEntry | null {
  const presence = doc as PresenceDocument;
  if (typeof presence.userId !== 'string' || !presence.userId) return null;
  const metadata = (
    typeof presence.metadata === 'object' && presence.metadata !== null ? presence.metadata : {}
  ) as { name?: unknown; orderId?: unknown };
  return {
    id: presence.$id,
    updatedAt: Date.parse(presence.$updatedAt),
    userId: presence.userId,
    name: typeof metadata.name === 'string' && metadata.name ? metadata.name : 'Someone',
    orderId: typeof metadata.orderId === 'string' ? metadata.orderId : null,
    status: typeof presence.status === 'string' ? presence.status : null,
  };
}

/**
 * Refuses inviting someone who already accepted (Appwrite would answer
 * `membership_already_confirmed`); an open invitation may be sent again (it replaces the old one).
 */
export function alreadyOnTheTeam(members: Iterable<TeamMember>, email: string): FieldError | null {
  const wanted = email.trim().toLowerCase();
  for (const member of members)
    if (member.confirmed && member.email.toLowerCase() === wanted)
      return { field: 'email', message: `${member.name} is already on the team.` };
  return null;
}
