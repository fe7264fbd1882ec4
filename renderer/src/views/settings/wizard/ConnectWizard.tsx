/**
 * The connect wizard over the doctor: URL and token, then (when needed)
 * trusting the certificate, granting privileges, and confirming what was
 * discovered; a last test, then save. Each page is reached from the
 * doctor's report; the secret never leaves this component except to main.
 * Opened with a providers-config entry taken in (issue 26), the URL and the
 * last page start from main's draft, and the entry is shown beside each page.
 */
import { useState } from 'react';
import { DoctorRunInput, type DoctorReport, type DoctorTlsInput } from '../../../../../shared/channels/doctor';
import { takenProfileName, type ProfileSummary } from '../../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../../shared/errors';
import { Dialog, ErrorNotice } from '../../../components/common';
import { useActionsAvailable } from '../../../stores/connection';
import { useDoctor } from '../../../stores/doctor';
import { useProfiles } from '../../../stores/profiles';
import type { WizardSeed } from '../../../stores/settings';
import { openTemplateBuilder } from '../../../stores/template-builder';
import { checkFields } from '../../templates/profile-edit';
import { ChoicesStep } from './ChoicesStep';
import { ConnectStep, type Credentials } from './ConnectStep';
import { DoctorSteps } from './DoctorSteps';
import { PrivilegesStep } from './PrivilegesStep';
import { SeedSummary } from './SeedSummary';
import { TrustStep } from './TrustStep';
import { VersionNotes } from './VersionNotes';
import { initialChoices, profileFrom, seededChoices, stepAfter, type Choices, type WizardStep } from './wizard-flow';

const RUN_KEY = 'wizard';
const noProfiles: readonly ProfileSummary[] = [];
const pageTitles: Record<WizardStep, string> = {
  connect: '1. Address and token',
  trust: '2. Trust the certificate',
  privileges: '3. Privileges',
  choices: '4. Choose what to use',
};

function problemsOf(input: unknown): Partial<Record<keyof Credentials, string>> {
  const parsed = DoctorRunInput.safeParse(input);
  if (parsed.success) return {};
  const out: Partial<Record<keyof Credentials, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (key === 'url' || key === 'tokenId' || key === 'secret') out[key] ??= issue.message;
  }
  return out;
}

export function ConnectWizard({ onClose, seed }: { onClose: () => void; seed?: WizardSeed | undefined }) {
  const run = useDoctor((s) => s.runs[RUN_KEY]);
  const runDoctor = useDoctor((s) => s.run);
  const vault = useProfiles((s) => s.list?.vault);
  const savedProfiles = useProfiles((s) => s.list?.profiles ?? noProfiles);
  const [creds, setCreds] = useState<Credentials>({ url: seed?.draft.url ?? '', tokenId: '', secret: '' });
  const [fitNotes, setFitNotes] = useState<string[]>([]);
  const [problems, setProblems] = useState<Partial<Record<keyof Credentials, string>>>({});
  const [tls, setTls] = useState<DoctorTlsInput>();
  const [step, setStep] = useState<WizardStep>('connect');
  const [choices, setChoices] = useState<Choices>();
  const [saveError, setSaveError] = useState<AppErrorValue>();
  const [saving, setSaving] = useState(false);
  const actions = useActionsAvailable();
  const [tested, setTested] = useState<DoctorReport>();

  const check = async (withTls: DoctorTlsInput | undefined, purpose: 'advance' | 'test' = 'advance') => {
    const input = { url: creds.url.trim(), tokenId: creds.tokenId.trim(), secret: creds.secret, ...(withTls ? { tls: withTls } : {}) };
    const found = { ...problemsOf(input), ...(creds.secret ? {} : { secret: 'give the token secret' }) };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setTested(undefined);
    const answer = await runDoctor(RUN_KEY, input);
    if (!answer.ok) return;
    const report = answer.value;
    if (purpose === 'test') {
      setTested(report);
      return;
    }
    const next = stepAfter(report);
    if (next === 'choices' && !choices) {
      const initial = initialChoices(report, vault?.protected ? 'keyring' : 'session');
      const seeded = seed ? seededChoices(initial, report, seed.draft) : undefined;
      setChoices(seeded?.choices ?? initial);
      setFitNotes(seeded?.notes ?? []);
    }
    setStep(next);
  };

  const trust = (choice: DoctorTlsInput) => {
    setTls(choice);
    void check(choice);
  };

  const save = async (thenBuild = false) => {
    const report = run?.report;
    if (!report || !choices) return;
    const profile = profileFrom(report, creds.tokenId.trim(), choices);
    const problem = checkFields(profile);
    if (problem) {
      setSaveError(problem);
      return;
    }
    setSaving(true);
    const answer = await useProfiles.getState().save({ profile, secret: creds.secret });
    setSaving(false);
    if (answer.ok) {
      onClose();
      // No suitable template was found: the builder opens on the cluster just saved (issue 14).
      if (thenBuild) openTemplateBuilder(answer.value.id);
    } else setSaveError(answer.error);
  };

  const busy = run?.running ?? false;
  const report = run?.report;
  const noSuitable = report !== undefined && !report.discovery.data.templates.some((t) => t.suitable);
  // Said while the name is typed, by the rule main refuses a save with (issue 23).
  const taken = choices ? takenProfileName(choices.name, savedProfiles.filter((p) => !p.demo)) : undefined;
  const nameProblem = taken ? `A cluster named “${taken.name}” is already connected: choose another name.` : undefined;
  const cannotSave = saving || busy || !actions.enabled || nameProblem !== undefined;
  const saveTitle = nameProblem ?? actions.reason;
  const footer = (
    <>
      {step !== 'connect' && (
        <button type="button" onClick={() => setStep('connect')} disabled={busy}>
          Back to address and token
        </button>
      )}
      {step === 'connect' && (
        <button type="button" className="primary" disabled={busy} onClick={() => void check(tls)}>
          {busy ? 'Checking…' : 'Check connection'}
        </button>
      )}
      {step === 'choices' && (
        <>
          <button type="button" disabled={busy} onClick={() => void check(tls ?? report?.tls.data.choice, 'test')}>
            {busy ? 'Testing…' : 'Test connection'}
          </button>
          {noSuitable ? (
            <>
              <button type="button" disabled={cannotSave} title={saveTitle} onClick={() => void save()}>
                Save cluster
              </button>
              <button type="button" className="primary" disabled={cannotSave} title={saveTitle} onClick={() => void save(true)}>
                Save and build a template
              </button>
            </>
          ) : (
            <button type="button" className="primary" disabled={cannotSave} title={saveTitle} onClick={() => void save()}>
              Save cluster
            </button>
          )}
        </>
      )}
    </>
  );

  return (
    <Dialog title="Connect a cluster" onClose={onClose} footer={footer} size="wide">
      <h3 className="wizard-page-title">{pageTitles[step]}</h3>
      {seed && (step === 'connect' || step === 'choices') && <SeedSummary seed={seed} fitNotes={fitNotes} />}
      <DoctorSteps run={run} />
      {report && <VersionNotes token={report.token} />}
      {run?.error && <ErrorNotice title="The check could not run" error={run.error} />}
      {step === 'connect' && (
        <ConnectStep
          value={creds}
          onChange={setCreds}
          problems={problems}
          refused={report && report.token.status === 'fail' ? report.token : undefined}
        />
      )}
      {step === 'trust' && report && <TrustStep section={report.tls} busy={busy} onTrust={trust} />}
      {step === 'privileges' && report && (
        <PrivilegesStep
          section={report.privileges}
          busy={busy}
          onRecheck={() => void check(tls)}
          onChangeToken={() => setStep('connect')}
        />
      )}
      {step === 'choices' && report && choices && (
        <ChoicesStep
          discovery={report.discovery}
          seedReason={report.suggestedProfile.isoStorageReason}
          value={choices}
          onChange={setChoices}
          nameProblem={nameProblem}
          vault={vault}
        />
      )}
      {tested && (
        <p role="status" className={tested.ready ? 'test-ok' : 'test-bad'}>
          {tested.ready ? 'Connection test passed: the cluster is ready.' : 'Connection test found problems: see the checks above.'}
        </p>
      )}
      {saveError && <ErrorNotice title="The cluster was not saved" error={saveError} />}
    </Dialog>
  );
}
