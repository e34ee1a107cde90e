/** A stored presence. */
export interface PresenceRecord {
  id: string;
  sequence: number;
  userId: string;
  createdAt: string;
  updatedAt: string;
  /** Formatted and sorted: `delete("user:U")`, `read("user:U")`, … */
  permissions: string[];
  status: string | null;
  source: string;
  expiresAt: string | null;
  metadata: Record<string, unknown> | null;
}

/** Appwrite's Presence model (the REST answer). */
export function presenceModel(presence: PresenceRecord): Record<string, unknown> {
  return {
    $id: presence.id,
    $createdAt: presence.createdAt,
    $updatedAt: presence.updatedAt,
    $permissions: presence.permissions,
    userId: presence.userId,
    status: presence.status,
    source: presence.source,
    expiresAt: presence.expiresAt,
    metadata: presence.metadata,
  };
}

/** The presence document as realtime sends it (`response` acks, presence events): with `$sequence`. */
export function presencePayload(presence: PresenceRecord): Record<string, unknown> {
  const { $id, ...rest } = presenceModel(presence);
  return { $id, $sequence: String(presence.sequence), ...rest };
}
