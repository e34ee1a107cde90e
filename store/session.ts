import type { DeskSlice, SessionSlice } from './state.ts';

/** Who is signed in (the actor of workflow actions). */
export const createSessionSlice: DeskSlice<SessionSlice> = (set) => ({
  actor: null,
  setActor(actor) {
    set((draft) => void (draft.actor = actor));
  },
});
