import { useEffect, useLayoutEffect, useRef, type MouseEvent, type ReactNode } from 'react';

/**
 * A side panel over the page: the platform's modal `<dialog>` (`showModal()`), so focus stays
 * inside it and the page behind is inert. Esc (the dialog's `cancel`), a click on the backdrop
 * and the close button call `onClose`; Esc in a note being written is left to the note. When the
 * panel goes away, focus returns to what had it before (the row or card that opened it).
 */
export function Drawer({
  title,
  onClose,
  children,
  actions,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  const leaving = useRef(false);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    element.focus();
    return () => {
      leaving.current = true;
      if (element.open) element.close();
      // Back to the row or card that opened the drawer, if it is still on the page.
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const onCancel = (event: Event) => {
      // The dialog stays until the route closes it (the page unmounts the drawer).
      event.preventDefault();
      const target = document.activeElement;
      if (target instanceof HTMLTextAreaElement && target.value) return;
      close.current();
    };
    // If the browser closed it anyway (a repeated Esc is not cancelable), follow.
    const onNativeClose = () => {
      if (!leaving.current) close.current();
    };
    element.addEventListener('cancel', onCancel);
    element.addEventListener('close', onNativeClose);
    return () => {
      element.removeEventListener('cancel', onCancel);
      element.removeEventListener('close', onNativeClose);
    };
  }, []);

  // A click outside the panel lands on the dialog itself (its ::backdrop).
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target !== event.currentTarget) return;
    const box = event.currentTarget.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) close.current();
  };

  return (
    <dialog
      className="drawer"
      aria-labelledby="drawer-title"
      tabIndex={-1}
      ref={dialog}
      onClick={onClick}
      data-testid="drawer"
    >
      <header className="drawer__header">
        <h2 id="drawer-title" className="drawer__title">
          {title}
        </h2>
        {actions}
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="drawer__body">{children}</div>
    </dialog>
  );
}
