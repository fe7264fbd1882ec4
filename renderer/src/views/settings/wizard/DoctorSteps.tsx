/** The four checks of a doctor run, each waiting, running, or done with its outcome. */
import type { DoctorStep } from '../../../../../shared/channels/doctor';
import { StateBadge } from '../../../components/common';
import type { DoctorRun } from '../../../stores/doctor';

const stepNames: Record<DoctorStep, string> = {
  tls: 'Certificate',
  token: 'Token',
  discovery: 'Discovery',
  privileges: 'Privileges',
};

const statusWords = { ok: 'passed', warn: 'passed with a warning', fail: 'failed', skipped: 'skipped' } as const;

/**
 * A warning that blocks did not pass: the doctor stopped there for the admin to decide (a
 * certificate seen for the first time, or one that changed since it was pinned), so it says
 * what the step is waiting for and what to do, never "passed" (issue 23).
 */
const waitingWords: Record<DoctorStep, string> = {
  tls: 'not trusted yet: compare its fingerprint with the node’s, then choose below how to trust it',
  token: 'needs your decision below',
  discovery: 'needs your decision below',
  privileges: 'needs your decision below',
};

function wordsOf(step: DoctorStep, status: keyof typeof statusWords, blocking: boolean): string {
  return status === 'warn' && blocking ? waitingWords[step] : statusWords[status];
}

export function DoctorSteps({ run }: { run: DoctorRun | undefined }) {
  if (!run) return null;
  return (
    <ol className="doctor-steps" aria-label="Connection checks">
      {(Object.keys(stepNames) as DoctorStep[]).map((step) => {
        const p = run.steps[step];
        const section = run.report?.[step];
        const status = section?.status ?? p.status;
        const waiting = status === 'warn' && section?.blocking === true;
        const words = status ? wordsOf(step, status, section?.blocking ?? false) : p.state === 'running' ? 'checking…' : run.running ? 'waiting' : 'not run';
        return (
          <li key={step}>
            <StateBadge state={waiting ? 'pending' : (status ?? (p.state === 'running' ? 'pending' : 'skipped'))} label={`${stepNames[step]}: ${words}`} />
            {section && section.status !== 'ok' && <span className="step-message">{section.message}</span>}
          </li>
        );
      })}
    </ol>
  );
}
