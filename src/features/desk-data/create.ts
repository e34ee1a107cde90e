import { benchDataLayer } from '../../lib/bench.ts';
import { createInterimDesk } from './interim-store.ts';
import type { DeskData } from './types.ts';

/** The desk's data layer for one signed-in session. */
export function createDeskData(): DeskData {
  benchDataLayer('stand-in (src/features/desk-data/interim-store.ts)');
  return createInterimDesk();
}
