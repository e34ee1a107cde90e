import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { DeskData } from './types.ts';

const DeskContext = createContext<DeskData | null>(null);

/** Provides the desk's data layer to the views below and runs its sync while mounted. */
export function DeskDataProvider({ desk, children }: { desk: DeskData; children: ReactNode }) {
  useEffect(() => desk.start(), [desk]);
  return <DeskContext.Provider value={desk}>{children}</DeskContext.Provider>;
}

/** The desk's data layer (inside {@link DeskDataProvider}). */
export function useDesk(): DeskData {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk outside DeskDataProvider');
  return desk;
}
