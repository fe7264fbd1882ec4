/**
 * Asks before something that cannot be undone. The confirm button names
 * the action ("Delete 2 proxies"), and Cancel has focus first so a stray
 * Enter does no harm, unless `confirmFirst`: where the dialog is itself the
 * second step of a deliberate key (Delete, then Enter to confirm).
 */
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, naming what will go. */
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirm button has focus first (Enter confirms). */
  confirmFirst?: boolean;
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
  confirmFirst = false,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" data-autofocus={confirmFirst ? undefined : true} onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            data-autofocus={confirmFirst ? true : undefined}
            className={danger ? 'danger' : 'primary'}
            disabled={busy}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
