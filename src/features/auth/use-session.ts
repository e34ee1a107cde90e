import { useStore } from 'zustand';
import { sessionStore, type SessionState, type SessionUser } from './session.ts';
import type { DeskRole } from '../../../domain/roles.ts';

/** The session state (re-renders when it changes). */
export function useSession(): SessionState {
  return useStore(sessionStore);
}

/** The signed-in member; only for components rendered inside the signed-in shell. */
export function useMember(): { user: SessionUser; role: DeskRole | null } {
  const state = useStore(sessionStore);
  if (state.status !== 'ready') throw new Error('useMember outside a signed-in screen');
  return { user: state.user, role: state.role };
}
