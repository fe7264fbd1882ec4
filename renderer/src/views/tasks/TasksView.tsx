/**
 * The Tasks view: running and recent tasks on the left, the chosen one in
 * full on the right. The choice is kept in the tasks store, so leaving the
 * view and coming back shows the same task and its log.
 */
import { EmptyState } from '../../components/common/EmptyState';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { ProgressBar } from '../../components/common/ProgressBar';
import { StateBadge } from '../../components/common/StateBadge';
import { formatRelativeTime } from '../../format';
import { sortedTasks, useTasks } from '../../stores/tasks';
import { openCreateProxy } from '../create/open-state';
import { ViewFrame } from '../Placeholder';
import { TaskDetails } from './TaskDetails';
import { currentStep, kindLabel, progressTone } from './words';
import './tasks.css';

export function TasksView() {
  const tasks = useTasks((s) => s.tasks);
  const loaded = useTasks((s) => s.loaded);
  const error = useTasks((s) => s.error);
  const reload = useTasks((s) => s.reload);
  const selectedId = useTasks((s) => s.selectedId);
  const select = useTasks((s) => s.select);
  // Children of a bulk create are listed under their parent, not on their own.
  const list = sortedTasks(tasks).filter((t) => !t.parentId || !tasks[t.parentId]);
  const selected = (selectedId ? tasks[selectedId] : undefined) ?? list[0];

  return (
    <ViewFrame title="Tasks">
      {error && <ErrorNotice error={error} title="The tasks could not be loaded" onRetry={() => void reload()} />}
      {loaded && list.length === 0 ? (
        <EmptyState
          title="No tasks yet"
          action={
            <button type="button" onClick={openCreateProxy}>
              Create a proxy
            </button>
          }
        >
          Creating, deleting and cleaning up run as tasks; they show here with their steps and the Proxmox log.
        </EmptyState>
      ) : (
        <div className="tasks-layout">
          <ul className="task-list" aria-label="Tasks">
            {list.map((t) => (
              <li key={t.id} className="task-item" aria-current={selected?.id === t.id ? 'true' : undefined}>
                <span className="task-item-head">
                  <button type="button" className="link-button" onClick={() => select(t.id)}>
                    {kindLabel[t.kind]} {t.target}
                  </button>
                  <StateBadge state={t.state} />
                </span>
                <ProgressBar
                  label={`Progress of ${t.target}`}
                  value={t.progress * 100}
                  detail={currentStep(t)}
                  tone={progressTone(t.state)}
                />
                <span className="muted">{formatRelativeTime(t.createdAt)}</span>
              </li>
            ))}
          </ul>
          {selected && <TaskDetails key={selected.id} task={selected} />}
        </div>
      )}
    </ViewFrame>
  );
}
