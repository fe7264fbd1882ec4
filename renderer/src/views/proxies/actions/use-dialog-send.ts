/**
 * A dialog's send (Migrate, Reconfigure, Recreate): busy while it runs;
 * when nothing started, the error stays in the dialog beside the inputs the
 * user may fix; otherwise the action store's `done` closes it with the outcome.
 */
import { useState } from 'react';
import type { AppErrorValue } from '../../../../../shared/errors';
import type { ProxyRow } from '../rows';
import { useProxyActions } from './action-store';
import type { ActionOutcome } from './run-actions';

export function useDialogSend(rows: ProxyRow[]) {
  const done = useProxyActions((s) => s.done);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorValue>();
  const send = async (start: () => Promise<ActionOutcome>) => {
    setBusy(true);
    setError(undefined);
    const outcome = await start();
    setBusy(false);
    if (outcome.error && outcome.started === 0) setError(outcome.error);
    else done(outcome, rows);
  };
  return { busy, error, send };
}
