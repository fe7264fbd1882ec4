/**
 * Build a template (issue 14): the form with its preflight, which main runs
 * again whenever a choice changes, then Start, then the build's progress and
 * its result, landing in the catalogue. Opened from Templates, the connect
 * wizard and Create proxy (useTemplateBuilder.open).
 */
import { useEffect, useState } from 'react';
import { Dialog, ErrorNotice } from '../../../components/common';
import { useProfiles } from '../../../stores/profiles';
import { useTemplateBuilder } from '../../../stores/template-builder';
import { openCreateProxyOn } from '../../create/open-state';
import { templatesRunKey } from '../../create/templates';
import { useDoctor } from '../../../stores/doctor';
import { BuildForm } from './BuildForm';
import { BuildProgress } from './BuildProgress';
import { checksumOf, formProblem, initialForm, inputOf, type BuilderForm } from './builder-form';
import { PreflightReport } from './PreflightReport';
import './builder.css';

export function BuildTemplateDialog({ clusterId, onClose }: { clusterId: string; onClose: () => void }) {
  const profile = useProfiles((s) => s.list?.profiles.find((p) => p.id === clusterId));
  const preflight = useTemplateBuilder((s) => s.preflight);
  const runPreflight = useTemplateBuilder((s) => s.runPreflight);
  const start = useTemplateBuilder((s) => s.start);
  const taskId = useTemplateBuilder((s) => s.taskId);
  const startError = useTemplateBuilder((s) => s.startError);
  const runDoctor = useDoctor((s) => s.run);
  const [form, setForm] = useState<BuilderForm | undefined>(profile ? initialForm(profile) : undefined);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    if (!form && profile) setForm(initialForm(profile));
  }, [form, profile]);

  // The preflight follows the form (the checksum does not change it; the VMID does when typed).
  const { checksumText: _c, keepImage: _k, checksumAlgorithm: _a, ...asked } = form ?? ({} as Partial<BuilderForm>);
  const key = JSON.stringify(asked);
  useEffect(() => {
    // A custom URL main would refuse is said in the form; the preflight waits for a good one.
    if (!form || taskId || formProblem(form)) return;
    const timer = setTimeout(() => void runPreflight(inputOf(clusterId, form)), 250);
    return () => clearTimeout(timer);
  }, [key, clusterId, taskId]);

  if (!profile || !form) {
    return (
      <Dialog title="Build a template" onClose={onClose}>
        <p className="muted">This cluster is not known any more.</p>
      </Dialog>
    );
  }
  const pf = preflight.result;
  const canStart = !!pf && pf.ok && !preflight.running && !checksumOf(form).problem && !formProblem(form) && !starting;
  const go = async () => {
    if (!pf) return;
    setStarting(true);
    await start({ ...inputOf(clusterId, form, pf), ...(form.keepImage ? { keepImage: true } : {}) });
    setStarting(false);
  };
  const footer = taskId ? (
    <button type="button" onClick={onClose}>
      Close
    </button>
  ) : (
    <>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      <button type="button" className="primary" disabled={!canStart} onClick={() => void go()}>
        {starting ? 'Starting…' : 'Start the build'}
      </button>
    </>
  );
  return (
    <Dialog title={`Build a template on ${profile.name}`} onClose={onClose} footer={footer} size="wide">
      {taskId ? (
        <BuildProgress
          taskId={taskId}
          onCreateProxy={(built) => {
            onClose();
            // The verdicts the form offers templates by must include the one just built.
            void runDoctor(templatesRunKey(clusterId), { profileId: clusterId });
            openCreateProxyOn({ clusterId, template: built.catalogueKey });
          }}
        />
      ) : (
        <>
          <BuildForm profile={profile} value={form} onChange={setForm} preflight={pf} />
          {preflight.running && !pf && <p className="muted">Checking the node, its storages and the token’s privileges…</p>}
          {preflight.error && <ErrorNotice title="The preflight could not run" error={preflight.error} />}
          {pf && <PreflightReport pf={pf} clusterId={clusterId} hasChecksum={checksumOf(form).value !== undefined} />}
          {startError && <ErrorNotice title="The build was not started" error={startError} />}
        </>
      )}
    </Dialog>
  );
}

/** Mounted once (App): the builder wherever it was opened from. */
export function TemplateBuilderHost() {
  const clusterId = useTemplateBuilder((s) => s.clusterId);
  const close = useTemplateBuilder((s) => s.close);
  if (!clusterId) return null;
  return <BuildTemplateDialog key={clusterId} clusterId={clusterId} onClose={close} />;
}

/** The way in: a button that opens the builder for a cluster. */
export function BuildTemplateButton({
  clusterId,
  primary,
  label = 'Build a template',
}: {
  clusterId: string;
  primary?: boolean;
  label?: string;
}) {
  const open = useTemplateBuilder((s) => s.open);
  return (
    <button type="button" className={primary ? 'primary' : undefined} onClick={() => open(clusterId)}>
      {label}
    </button>
  );
}
