/**
 * A build's progress (issue 14): its steps, the download's bytes and rate
 * (read from wget's rows in the Proxmox task log), the live log of the step
 * that runs, then the template with the doctor's verdict, or what went wrong
 * with Resume, Retry and Clean up as main offers them.
 */
import type { TaskView } from '../../../../../shared/channels/tasks';
import type { BuiltTemplateResult } from '../../../../../shared/channels/templates';
import { formatDownloadBytes, parseDownloadProgress } from '../../../../../shared/domain/wget-progress';
import { ErrorNotice, ProgressBar, StateBadge } from '../../../components/common';
import { logKey, useTasks, type TaskAction } from '../../../stores/tasks';
import { TaskLog } from '../../tasks/TaskLog';
import { VerdictBadge, VerdictReasons } from '../verdict';

const stepWords: Record<string, string> = {
  preflight: 'Check the node, storages and privileges',
  download: 'Download the image on the node',
  'create-vm': 'Create the VM and import the disk',
  convert: 'Convert it to a template',
  verify: 'Check it with the template rules',
  'cleanup-image': 'Remove the downloaded image',
  catalogue: 'Add it to the catalogue',
};

const actionWords: Record<TaskAction, string> = {
  cancel: 'Cancel',
  retry: 'Retry',
  resume: 'Resume',
  'clean-up': 'Clean up',
  'stop-it': 'Stop it',
  'wait-longer': 'Wait longer',
};

function DownloadBar({ task }: { task: TaskView }) {
  const step = task.steps.find((s) => s.name === 'download');
  const upid = step?.upid;
  const lines = useTasks((s) => (upid ? s.logs[logKey(task.id, upid)]?.lines : undefined));
  if (!step || !upid) return null;
  const p = parseDownloadProgress((lines ?? []).map((l) => l.t));
  if (!p) return null;
  const detail = [
    `${formatDownloadBytes(p.bytes)}${p.totalBytes !== undefined ? ` of ${formatDownloadBytes(p.totalBytes)}` : ''}`,
    ...(p.bytesPerSecond !== undefined ? [`${formatDownloadBytes(p.bytesPerSecond)}/s`] : []),
    ...(p.eta ? [`${p.eta} left`] : []),
    ...(p.took ? [`took ${p.took}`] : []),
  ].join(' · ');
  return <ProgressBar label="Download" value={p.percent} detail={detail} tone={p.done ? 'ok' : 'info'} />;
}

export function BuildProgress({ taskId, onCreateProxy }: { taskId: string; onCreateProxy?: (built: BuiltTemplateResult) => void }) {
  const task = useTasks((s) => s.tasks[taskId]);
  const act = useTasks((s) => s.act);
  const actionError = useTasks((s) => s.actionErrors[taskId]);
  if (!task) return <p className="muted">Starting the build…</p>;
  const running = task.state === 'running' || task.state === 'queued';
  const logStep = task.steps.find((s) => s.state === 'running' && s.upid) ?? [...task.steps].reverse().find((s) => s.upid);
  const result = task.template;
  return (
    <section className="builder-progress" aria-label="Build progress">
      <p>
        Building <strong>{task.target}</strong> on {task.node ?? '…'}: <StateBadge state={task.state} />
      </p>
      <ol className="builder-steps">
        {task.steps.map((s) => (
          <li key={s.name} className={`step-${s.state}`}>
            <StateBadge state={s.state} /> {stepWords[s.name] ?? s.name}
          </li>
        ))}
      </ol>
      <DownloadBar task={task} />
      {logStep?.upid && (
        <details open={running}>
          <summary>Proxmox task log ({logStep.name})</summary>
          <TaskLog taskId={task.id} upid={logStep.upid} live={running} />
        </details>
      )}
      {task.state === 'succeeded' && result && (
        <div role="status" className="builder-result">
          <p>
            Template <strong>{result.name}</strong> (VMID {result.vmid} on {result.node}) <VerdictBadge verdict={result.verdict} />
          </p>
          <VerdictReasons verdict={result.verdict} />
          <p>{task.message}</p>
          {onCreateProxy && result.catalogue !== 'not-saved' && (
            <button type="button" className="primary" onClick={() => onCreateProxy(result)}>
              Create a proxy from it
            </button>
          )}
        </div>
      )}
      {task.state !== 'succeeded' && !running && (
        <>
          {task.error ? <ErrorNotice title="The build did not finish" error={task.error} /> : <p role="alert">{task.message}</p>}
          {task.leftBehind && <p>Left in Proxmox: {task.leftBehind}.</p>}
        </>
      )}
      {actionError && <ErrorNotice title="That did not work" error={actionError} />}
      <div className="builder-actions">
        {task.actions.map((a) => (
          <button key={a} type="button" onClick={() => void act(task.id, a)}>
            {actionWords[a]}
          </button>
        ))}
      </div>
    </section>
  );
}
