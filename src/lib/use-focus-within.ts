import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'button:not(:disabled), [href], input:not(:disabled), textarea, select';

/**
 * Keeps the keyboard in a group of controls whose buttons come and go (an order's actions, a
 * confirm step): when the focused control is removed or disabled by what it did, focus moves to
 * the group's `[data-autofocus]` control (once it is no longer busy), else its primary button,
 * else its first control, else the group itself (give it `tabIndex={-1}`) — not to the page's
 * start. Focus moved elsewhere on purpose (Tab, a click outside) is left alone. Runs after
 * every render of the calling component.
 */
export function useFocusWithin(group: RefObject<HTMLElement | null>): void {
  const held = useRef(false);

  useEffect(() => {
    const element = group.current;
    if (!element) return;
    const onFocusIn = () => {
      held.current = true;
    };
    const onFocusOut = (event: FocusEvent) => {
      const to = event.relatedTarget as Node | null;
      if (to && element.contains(to)) return;
      if (to) {
        held.current = false;
        return;
      }
      // Lost to nowhere: kept only when the control itself went away, not on a click elsewhere.
      const from = event.target as HTMLElement & { disabled?: boolean };
      queueMicrotask(() => {
        held.current = !from.isConnected || from.disabled === true;
      });
    };
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    return () => {
      element.removeEventListener('focusin', onFocusIn);
      element.removeEventListener('focusout', onFocusOut);
    };
  }, [group]);

  useLayoutEffect(() => {
    const element = group.current;
    if (!element || !held.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== element) return;
    const preferred = element.querySelector<HTMLElement>('[data-autofocus]');
    // The preferred control is busy with its own action: it gets the focus back when done.
    if (preferred?.classList.contains('is-busy')) return element.focus();
    const next =
      (preferred && !preferred.matches(':disabled') ? preferred : null) ??
      element.querySelector<HTMLElement>('.btn--primary:not(:disabled)') ??
      element.querySelector<HTMLElement>(FOCUSABLE);
    (next ?? element).focus();
  });
}
