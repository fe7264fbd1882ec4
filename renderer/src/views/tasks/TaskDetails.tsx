/**
 * One task in full: progress, the current step, every step, what the
 * admin may do now (cancel, retry, resume, clean up — only what main says
 * can help), where to fix a permanent failure, a create's address with
 * Copy, Open in Proxies and Test, and the Proxmox task logs of its steps.
 */
import { useState } from 'react';
import type { TaskView } from '../../../../shared/channels/tasks';
import { CopyButton } from '../../components/common/CopyButton';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { ProgressBar } from '../../components/common/ProgressBar';
import { StateBadge } from '../../components/common/StateBadge';
import { DateTime, RelativeTime } from '../../components/common/Time';
import { useActionsAvailable } from '../../stores/connection';
import { useInventory } from '../../stores/inventory';
import { useProxyFocus } from '../../stores/proxy-focus';
import { useTasks, type TaskAction } from '../../stores/tasks';
import { useUi } from '../../stores/ui';
import { ProxyTest } from '../proxies/ProxyTest';
import { flattenRows, rowKey, type ProxyRow } from '../proxies/rows';
import { TaskLog } from './TaskLog';
import { useClusterWords } from './task-columns';
import { currentStep, fixPlace, kindLabel, partsLine, progressTone, stepBadgeState, stepLabel } from './words';

const actionLabel: Record<TaskAction, string> = {
  cancel: 'Cancel',
  retry: 'Retry',
  resume: 'Resume',
  'clean-up': 'Clean up',
  'stop-it': 'Stop it',
  'wait-longer': 'Wait longer',
};

function Actions({ task }: { task: TaskView }) {
  const act = useTasks((s) => s.act);
  const error = useTasks((s) => s.actionErrors[task.id]);
  const note = useTasks((s) => s.notes[task.id]);
  const [busy, setBusy] = useState<TaskAction>();
  const actions = useActionsAvailable();
  const run = async (a: TaskAction) => {
    setBusy(a);
    await act(task.id, a);
    setBusy(undefined);
  };
  const fix = task.state === 'failed' && task.fixAt ? fixPlace[task.fixAt] : undefined;
  const setView = useUi((s) => s.setView);
  return (
    <>
      {task.leftBehind && task.actions.includes('clean-up') && (
        <p className="task-left">
          Left in Proxmox: <strong>{task.leftBehind}</strong>. Clean up deletes it (only what carries this create’s UID).
        </p>
      )}
      {task.state === 'failed' && task.error && task.error.kind !== 'transient' && (
        <div className="task-fix" role="group" aria-label="How to fix it">
          <p>
            Retrying would fail the same way. To fix it: {task.error.hint}
          </p>
          {fix && (
            <button type="button" onClick={() => setView(fix.view)}>
              {fix.label}
            </button>
          )}
        </div>
      )}
      {task.actions.length > 0 && (
        <div className="task-actions" role="group" aria-label="Task actions">
          {task.actions.map((a) => (
            <button
              key={a}
              type="button"
              className={a === 'cancel' ? 'danger' : 'primary'}
              disabled={busy !== undefined || !actions.enabled}
              title={actions.reason}
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

/**
 * What the guest is doing while its address is awaited, from what Proxmox shows of it: the VM not running yet, or
 * running for how long (a cloud image boots, cloud-init installs the proxy and starts qemu-guest-agent, which then
 * reports the address; about a minute on real hardware).
 */
function guestWords(row: ProxyRow | undefined) {
  if (!row?.startedAt || row.status !== 'running') return <>The VM is starting.</>;
  return (
    <>
      The VM runs (started <RelativeTime at={row.startedAt} />): the guest boots, cloud-init installs the proxy and starts
      qemu-guest-agent, which then reports the address.
    </>
  );
}

/** A create's second part: the address the guest agent reports, and what to do with it. */
function Address({ task }: { task: TaskView }) {
  const address = task.address;
  const clusters = useInventory((s) => s.clusters);
  const focus = useProxyFocus((s) => s.focus);
  const setView = useUi((s) => s.setView);
  const [testing, setTesting] = useState(false);
  if (!address) return null;
  const row =
    task.vmid !== undefined ? flattenRows(clusters).find((r) => r.key === rowKey(task.clusterId, task.vmid!)) : undefined;
  return (
    <section aria-label="Proxy address" className="task-address">
      <h3>Address</h3>
      {address.state === 'waiting' && (
        <p role="status">
          {guestWords(row)} Waiting for the guest agent to report an address (since <RelativeTime at={address.since} />). The proxy is
          usable once it has one: the create is done then.
        </p>
      )}
      {address.state === 'gave-up' && (
        <div className="task-fix" role="status">
          <p>{address.reason}</p>
          <p>What to check: {address.hint}</p>
        </div>
      )}
      {address.state === 'ready' && address.value && (
        <>
          <p className="proxy-url">
            <code aria-label="Address">{address.value}</code> <CopyButton text={address.value} label="Copy address" />
          </p>
          <div className="task-actions" role="group" aria-label="Proxy actions">
            <button
              type="button"
              onClick={() => {
                focus(task.clusterId, task.vmid!);
                setView('proxies');
              }}
            >
              Open in Proxies
            </button>
            <button type="button" aria-pressed={testing} disabled={!row} onClick={() => setTesting((t) => !t)}>
              Test
            </button>
          </div>
          {!row && <p className="muted">The proxy is not in the inventory’s list yet; Test works once it is.</p>}
          {testing && row && <ProxyTest row={row} />}
        </>
      )}
    </section>
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
  const cluster = useClusterWords()(task.clusterId);
  return (
    <article className="task-details" aria-label={`Task ${kindLabel[task.kind]} ${task.target}`}>
      <header>
        <h2>
          {kindLabel[task.kind]}: {task.target}
        </h2>
        <StateBadge state={task.state} />
        <span className="muted">
          {cluster.removed ? ' · cluster removed' : ''}
          {task.node ? ` on ${task.node}` : ''}
          {task.vmid ? `, VM ${task.vmid}` : ''} · started <DateTime at={task.startedAt ?? task.createdAt} /> (
          <RelativeTime at={task.startedAt ?? task.createdAt} />)
          {task.attempts > 1 ? ` · attempt ${task.attempts}` : ''}
        </span>
      </header>
      <ProgressBar
        label={`Details progress of ${task.target}`}
        value={task.progress * 100}
        detail={currentStep(task)}
        tone={progressTone(task.state, task.address)}
      />
      {partsLine(task) && (
        <p className="task-parts" aria-label="Parts of the create">
          {partsLine(task)}
        </p>
      )}
      {task.message && <p className="task-message">{task.message}</p>}
      {task.error && <ErrorNotice error={task.error} title="Why it stopped" announce={false} />}
      <Actions task={task} />
      <Address task={task} />
      {task.steps.length > 0 && (
        <section aria-label="Steps">
          <h3>Steps</h3>
          <ol className="step-list">
            {task.steps.map((s, i) => (
              <li key={`${s.name}-${i}`} className={`step step-${s.state}`}>
                <StateBadge state={stepBadgeState(s.state)} label={stepLabel[s.state]} /> {s.name}
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
