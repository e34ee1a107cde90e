import { useStore } from 'zustand';
import { sessionStore, type SessionState } from './session.ts';

/** The session state (re-renders when it changes). */
export function useSession(): SessionState {
  return useStore(sessionStore);
}
