import { Query } from 'appwrite';
import { useEffect, useState } from 'react';
import { DESK_TEAM_ID } from '../../../domain/ids.ts';
import { sdk } from '../../lib/appwrite.ts';

/** Desk team members (id and name) for the assignee filter; empty until loaded or on failure. */
export function useMembers(): readonly { id: string; name: string }[] {
  const [members, setMembers] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    let live = true;
    sdk()
      .teams.listMemberships({ teamId: DESK_TEAM_ID, queries: [Query.limit(100)] })
      .then(({ memberships }) => {
        if (!live) return;
        setMembers(
          memberships
            .filter((m) => m.confirm)
            .map((m) => ({ id: m.userId, name: m.userName || m.userEmail }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        );
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return members;
}
