import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useFocusInSight } from './useFocusInSight';

interface Props {
  open: boolean;
  title: string;
  /** Esc and the close button call it; omit for a dialog that must be answered. */
  onClose?: () => void;
  className?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser traps focus, makes the rest inert, and Esc closes it. The
 * title names it for assistive technology.
 */
export function Dialog({ open, title, onClose, className, children, footer }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const body = useRef<HTMLDivElement>(null);
  useFocusInSight(body, open);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose?.();
      }}
      onClose={() => {
        // The browser closed it on its own (a second Escape it lets no page refuse): the app hears of it, and
        // a dialog that must be answered comes back. The event comes a task after the close, so a dialog the
        // app closed and opened again meanwhile (Esc, then Ctrl+O at once) is open: that close is old news.
        if (!open || ref.current?.open) return;
        if (onClose) onClose();
        else ref.current?.showModal();
      }}
    >
      {open && (
        <div className="dialog-frame">
          <header className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            {onClose && (
              <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
                ✕
              </button>
            )}
          </header>
          <div className="dialog-body" ref={body}>
            {children}
          </div>
          {footer && <footer className="dialog-foot">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
