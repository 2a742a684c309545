import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { CloseIcon } from './Icon';

/**
 * A modal dialog on the platform's <dialog>: showModal() makes everything else inert (the focus
 * cannot leave it), Escape closes it, focus goes back where it came from when it closes (WAI-ARIA
 * APG "Dialog (Modal)"). Labelled by its title, described by its first paragraph; `initialFocus`
 * names the element (by data-autofocus) that gets focus first, else the first button.
 */
const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last: showModal()
 * keeps the page inert, but without this the focus would leave for the browser's own controls.
 */
function trapTab(e: KeyboardEvent<HTMLDialogElement>) {
  if (e.key !== 'Tab') return;
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = all[0];
  const last = all[all.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !e.currentTarget.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !e.currentTarget.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

function focusFirst(dialog: HTMLDialogElement) {
  const first =
    dialog.querySelector<HTMLElement>('[data-autofocus]:not([disabled])') ?? dialog.querySelector<HTMLElement>('.dialog-actions button:not([disabled])');
  first?.focus();
}

export function Dialog({
  title,
  description,
  onClose,
  children,
  actions,
  testId,
  tone = 'neutral',
  wide = false,
  focusKey,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children?: ReactNode;
  actions: ReactNode;
  testId: string;
  tone?: 'neutral' | 'danger';
  wide?: boolean;
  /** When this changes (e.g. a preview arrived and its button is enabled), focus goes to the data-autofocus element again. */
  focusKey?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    focusFirst(dialog);
    // Escape fires "cancel": the dialog is closed by the app (its state), not by the browser alone.
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      // The opener may be gone or disabled now (Disable turns its own button off): focus then goes to
      // the main region, never to <body>, so keyboard users keep their place in the page.
      if (opener?.isConnected) opener.focus();
      if (!opener?.isConnected || document.activeElement !== opener) document.getElementById('main')?.focus();
    };
  }, []);

  useEffect(() => {
    if (focusKey !== undefined && ref.current) focusFirst(ref.current);
  }, [focusKey]);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${tone}${wide ? ' dialog-wide' : ''}`}
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-desc` : undefined}
      data-testid={testId}
      onKeyDown={trapTab}
    >
      <header className="dialog-header">
        <h2 className="dialog-title" id={`${id}-title`}>
          {title}
        </h2>
        <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {description && (
        <div className="dialog-description" id={`${id}-desc`}>
          {description}
        </div>
      )}
      {children && <div className="dialog-body">{children}</div>}
      <footer className="dialog-actions">{actions}</footer>
    </dialog>
  );
}
