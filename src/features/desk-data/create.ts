import { createInterimDesk } from './interim-store.ts';
import type { DeskData } from './types.ts';

/** The desk's data layer for one signed-in session. */
export function createDeskData(): DeskData {
  return createInterimDesk();
}
