/**
 * The dialog of the action asked for (action-store.ts), rendered once by
 * the Proxies view, whichever place asked: the row menu, the toolbar, the
 * drawer or a shortcut. And ActionNotice: what the last action started,
 * with a way to its task and log.
 */
import { isPowerAction } from '../../../../../shared/domain/bulk-actions';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { useTasks } from '../../../stores/tasks';
import { useUi } from '../../../stores/ui';
import { DeleteProxies } from '../DeleteProxies';
import { useProxyActions } from './action-store';
import { ConfirmPower } from './ConfirmAction';
import { ConsoleDialog } from './ConsoleDialog';
import { MigrateDialog } from './MigrateDialog';
import { ReconfigureDialog } from './ReconfigureDialog';
import { RecreateDialog } from './RecreateDialog';
import { outcomeText } from './run-actions';

export function ActionDialogs({ onDeleted }: { onDeleted?: () => void }) {
  const pending = useProxyActions((s) => s.pending);
  const cancel = useProxyActions((s) => s.cancel);
  const done = useProxyActions((s) => s.done);
  if (!pending) return null;
  // A key per request: a new request gets a fresh form.
  const key = `${pending.action}:${pending.rows.map((r) => r.key).join()}`;
  if (isPowerAction(pending.action)) return <ConfirmPower key={key} pending={pending} />;
  switch (pending.action) {
    case 'console':
      return <ConsoleDialog key={key} pending={pending} />;
    case 'migrate':
      return <MigrateDialog key={key} pending={pending} />;
    case 'reconfigure':
      return <ReconfigureDialog key={key} pending={pending} />;
    case 'recreate':
      return <RecreateDialog key={key} pending={pending} />;
    case 'delete':
      return (
        <DeleteProxies
          key={key}
          rows={pending.rows}
          pending={pending}
          onCancel={cancel}
          onDone={(o) => {
            done({ action: 'delete', started: o.started, taskId: o.taskId, error: o.error }, pending.rows);
            if (o.started > 0) onDeleted?.();
          }}
        />
      );
    default:
      return null;
  }
}

export function ActionNotice() {
  const outcome = useProxyActions((s) => s.outcome);
  const dismiss = useProxyActions((s) => s.dismissOutcome);
  const select = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  if (!outcome) return null;
  const { result, rows } = outcome;
  return (
    <div className="notice action-notice" role="status">
      {result.started > 0 && (
        <>
          {outcomeText(result, rows)}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              select(result.taskId);
              setView('tasks');
            }}
          >
            Watch {result.started === 1 ? 'it' : 'them'} in Tasks
          </button>{' '}
        </>
      )}
      {result.error && <ErrorNotice error={result.error} title={result.started > 0 ? 'Some did not start' : 'That did not start'} />}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
