import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../domain/errors.ts';
import { handleAuthError } from '../auth/session.ts';
import { toAppError } from '../../../store/appwrite/errors.ts';

/** A list a page loads from the backend and edits item by item (the products and team pages). */
export interface ManagedList<T> {
  /** The items, or null until the first load answers. */
  items: T[] | null;
  /** Why the last load failed, if it did. */
  loadError: AppError | null;
  /** Loads the list again. */
  reload: () => Promise<void>;
  /** The key of the item an action is running on ('new' while creating), else null. */
  busy: string | null;
  /** The message of the last failed action. */
  actionError: string | null;
  /**
   * Runs `work` for the item `key`, then reloads; on failure keeps the list, shows the
   * message (signing out on an expired session) and answers false.
   */
  act: (key: string, work: () => Promise<unknown>, doing: string) => Promise<boolean>;
}

/** Loads a list once mounted with `fetchItems`; `viewing` names the task for error messages. */
export function useManagedList<T>(fetchItems: () => Promise<T[]>, viewing: string): ManagedList<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [loadError, setLoadError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    setLoadError(null);
    try {
      setItems(await fetchItems());
    } catch (error) {
      setLoadError(toAppError(error, viewing));
    }
  }, [fetchItems, viewing]);

  useEffect(() => {
    const timer = setTimeout(() => void reload(), 0);
    return () => clearTimeout(timer);
  }, [reload]);

  const act = async (key: string, work: () => Promise<unknown>, doing: string) => {
    setBusy(key);
    setActionError(null);
    try {
      await work();
      await reload();
      return true;
    } catch (error) {
      const appError = toAppError(error, doing);
      handleAuthError(appError);
      setActionError(appError.message);
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { items, loadError, reload, busy, actionError, act };
}
