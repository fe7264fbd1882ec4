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

export function DoctorSteps({ run }: { run: DoctorRun | undefined }) {
  if (!run) return null;
  return (
    <ol className="doctor-steps" aria-label="Connection checks">
      {(Object.keys(stepNames) as DoctorStep[]).map((step) => {
        const p = run.steps[step];
        const section = run.report?.[step];
        const status = section?.status ?? p.status;
        const words = status ? statusWords[status] : p.state === 'running' ? 'checking…' : run.running ? 'waiting' : 'not run';
        return (
          <li key={step}>
            <StateBadge state={status ?? (p.state === 'running' ? 'pending' : 'skipped')} label={`${stepNames[step]}: ${words}`} />
            {section && section.status !== 'ok' && <span className="step-message">{section.message}</span>}
          </li>
        );
      })}
    </ol>
  );
}
