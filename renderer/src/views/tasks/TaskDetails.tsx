/**
 * One task in full: progress, the current step, every step, what the
 * admin may do now (cancel, retry, resume, clean up), the outcome, and the
 * Proxmox task logs of its steps.
 */
import { useState } from 'react';
import type { TaskView } from '../../../../shared/channels/tasks';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { ProgressBar } from '../../components/common/ProgressBar';
import { StateBadge } from '../../components/common/StateBadge';
import { formatRelativeTime } from '../../format';
import { useTasks, type TaskAction } from '../../stores/tasks';
import { TaskLog } from './TaskLog';
import { currentStep, kindLabel, progressTone } from './words';

const actionLabel: Record<TaskAction, string> = { cancel: 'Cancel', retry: 'Retry', resume: 'Resume', 'clean-up': 'Clean up' };

function Actions({ task }: { task: TaskView }) {
  const act = useTasks((s) => s.act);
  const error = useTasks((s) => s.actionErrors[task.id]);
  const note = useTasks((s) => s.notes[task.id]);
  const [busy, setBusy] = useState<TaskAction>();
  const run = async (a: TaskAction) => {
    setBusy(a);
    await act(task.id, a);
    setBusy(undefined);
  };
  return (
    <>
      {task.actions.length > 0 && (
        <div className="task-actions" role="group" aria-label="Task actions">
          {task.actions.map((a) => (
            <button
              key={a}
              type="button"
              className={a === 'cancel' ? 'danger' : 'primary'}
              disabled={busy !== undefined}
              onClick={() => void run(a)}
            >
              {busy === a ? `${actionLabel[a]}…` : actionLabel[a]}
            </button>
          ))}
        </div>
      )}
      {note && <p role="status">{note}</p>}
      {error && <ErrorNotice error={error} title="That did not work" />}
    </>
  );
}

function Children({ task }: { task: TaskView }) {
  const tasks = useTasks((s) => s.tasks);
  const select = useTasks((s) => s.select);
  if (!task.childIds?.length) return null;
  return (
    <section aria-label="Proxies of this create">
      <h3>Proxies</h3>
      <ul className="plain-list">
        {task.childIds.map((id) => {
          const child = tasks[id];
          return (
            <li key={id}>
              <button type="button" className="link-button" onClick={() => select(id)}>
                {child?.target ?? id}
              </button>{' '}
              {child && <StateBadge state={child.state} />} {child && currentStep(child)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Seeds({ task }: { task: TaskView }) {
  if (!task.seeds) return null;
  return (
    <section aria-label="Seeds">
      <h3>Seeds</h3>
      <ul className="plain-list">
        {task.seeds.deleted.map((s) => (
          <li key={`d${s.node}${s.volid}`}>
            <StateBadge state="succeeded" label="deleted" /> <code>{s.volid}</code> on {s.node}: {s.reason}
          </li>
        ))}
        {task.seeds.skipped.map((s) => (
          <li key={`s${s.node}${s.volid}`}>
            <StateBadge state="skipped" label="kept" /> <code>{s.volid}</code> on {s.node}: {s.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TaskDetails({ task }: { task: TaskView }) {
  const [upid, setUpid] = useState<string>();
  const shownUpid = task.upids.find((u) => u.upid === upid) ?? task.upids.at(-1);
  const live = task.state === 'running' || task.state === 'queued';
  return (
    <article className="task-details" aria-label={`Task ${kindLabel[task.kind]} ${task.target}`}>
      <header>
        <h2>
          {kindLabel[task.kind]}: {task.target}
        </h2>
        <StateBadge state={task.state} />
        <span className="muted">
          {task.node ? ` on ${task.node}` : ''}
          {task.vmid ? `, VM ${task.vmid}` : ''} · started {formatRelativeTime(task.startedAt ?? task.createdAt)}
          {task.attempts > 1 ? ` · attempt ${task.attempts}` : ''}
        </span>
      </header>
      <ProgressBar
        label={`Details progress of ${task.target}`}
        value={task.progress * 100}
        detail={currentStep(task)}
        tone={progressTone(task.state)}
      />
      {task.message && <p className="task-message">{task.message}</p>}
      {task.error && <ErrorNotice error={task.error} title="Why it stopped" announce={false} />}
      <Actions task={task} />
      {task.steps.length > 0 && (
        <section aria-label="Steps">
          <h3>Steps</h3>
          <ol className="step-list">
            {task.steps.map((s, i) => (
              <li key={`${s.name}-${i}`} className={`step step-${s.state}`}>
                <StateBadge state={s.state === 'done' ? 'succeeded' : s.state} label={s.state} /> {s.name}
                {s.node ? <span className="muted"> on {s.node}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      )}
      <Children task={task} />
      <Seeds task={task} />
      {shownUpid && (
        <section aria-label="Proxmox task log">
          <h3>Proxmox task log</h3>
          {task.upids.length > 1 && (
            <label className="inline-label">
              Proxmox task
              <select value={shownUpid.upid} onChange={(e) => setUpid(e.target.value)}>
                {task.upids.map((u) => (
                  <option key={u.upid} value={u.upid}>
                    {u.step} on {u.node}
                  </option>
                ))}
              </select>
            </label>
          )}
          <TaskLog taskId={task.id} upid={shownUpid.upid} live={live} />
        </section>
      )}
    </article>
  );
}
