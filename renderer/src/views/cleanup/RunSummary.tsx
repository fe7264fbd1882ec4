/** The outcome of the last delete or dry run, read from its task: what went, what stayed and why. */
import { ProgressBar } from '../../components/common/ProgressBar';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { useCleanup } from '../../stores/cleanup';
import { useTasks } from '../../stores/tasks';
import { useUi } from '../../stores/ui';

export function RunSummary() {
  const run = useCleanup((s) => s.lastRun);
  const task = useTasks((s) => (run ? s.tasks[run.taskId] : undefined));
  const select = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  if (!run) return null;
  const title = run.dryRun ? 'Dry run' : 'Delete';
  const done = task && !['queued', 'running'].includes(task.state);
  return (
    <section className="run-summary" aria-label="Result summary">
      <h2>
        {title} of {run.count} {run.count === 1 ? 'seed' : 'seeds'}
      </h2>
      {!task && <p>Started; waiting for the task's first report.</p>}
      {task && !done && <ProgressBar label={`${title} progress`} value={task.progress * 100} />}
      {task?.message && <p role="status">{task.message}</p>}
      {task?.error && <ErrorNotice error={task.error} title={`The ${title.toLowerCase()} stopped`} />}
      {done && task.seeds && (
        <ul className="plain-list">
          {task.seeds.deleted.map((s) => (
            <li key={`d${s.node}${s.volid}`}>
              {run.dryRun ? 'Would delete' : 'Deleted'} <code>{s.volid}</code> on {s.node}: {s.reason}
            </li>
          ))}
          {task.seeds.skipped.map((s) => (
            <li key={`s${s.node}${s.volid}`}>
              Kept <code>{s.volid}</code> on {s.node}: {s.reason}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          select(run.taskId);
          setView('tasks');
        }}
      >
        Open the task
      </button>
    </section>
  );
}
