/**
 * The template catalogue per cluster. Verdicts come from the connect
 * doctor run on the saved cluster (the same rules create applies), so the
 * renderer judges nothing itself.
 */
import { useEffect, useState } from 'react';
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import type { AppErrorValue } from '../../../../shared/errors';
import { EmptyState, ErrorNotice, Toolbar } from '../../components/common';
import { useDoctor } from '../../stores/doctor';
import { useActionsAvailable } from '../../stores/connection';
import { useSecretNeeded } from '../../stores/secrets-needed';
import { clustersOf, preferredCluster, useProfiles } from '../../stores/profiles';
import { ViewFrame } from '../Placeholder';
import { CatalogueTable } from './CatalogueTable';
import { DiscoveredTable } from './DiscoveredTable';
import { MachineTypesEditor } from './MachineTypesEditor';
import { saveChange } from './profile-edit';
import { BuildTemplateButton } from './builder/BuildTemplateDialog';

export function TemplatesView() {
  const clusters = clustersOf(useProfiles((s) => s.list));
  const [chosen, setChosen] = useState<string>();
  const profile = clusters.find((c) => c.id === chosen) ?? preferredCluster(clusters);
  const key = `templates:${profile?.id ?? ''}`;
  const run = useDoctor((s) => s.runs[key]);
  const actions = useActionsAvailable();
  const runDoctor = useDoctor((s) => s.run);
  const [saveError, setSaveError] = useState<AppErrorValue>();

  const check = () => {
    if (profile) void runDoctor(key, { profileId: profile.id });
  };
  // Without its secret the cluster cannot be asked: its templates are not checked, not missing.
  const secretNeeded = useSecretNeeded(profile?.id);
  useEffect(() => {
    if (profile && !secretNeeded && !useDoctor.getState().runs[`templates:${profile.id}`])
      void runDoctor(`templates:${profile.id}`, { profileId: profile.id });
  }, [profile, runDoctor, secretNeeded]);

  if (!profile) {
    return (
      <ViewFrame title="Templates">
        <EmptyState title="No cluster connected">Connect a cluster in Settings to see its templates.</EmptyState>
      </ViewFrame>
    );
  }
  const editable = !profile.demo;
  const verdicts = run?.report?.discovery.data.templates;
  const change = async (apply: (t: Record<string, { vmid: number }>) => Record<string, { vmid: number }>) => {
    const answer = await saveChange(profile, (f) => ({ ...f, templates: apply(f.templates) }));
    setSaveError(answer.ok ? undefined : answer.error);
  };
  // Two templates may share a name (one per node); the VMID keeps the catalogue keys apart.
  const keyFor = (v: TemplateVerdict, t: Record<string, unknown>) =>
    v.name in t ? `${v.name.slice(0, 56)}-${v.vmid}` : v.name.slice(0, 64);
  const add = (v: TemplateVerdict) => void change((t) => ({ ...t, [keyFor(v, t)]: { vmid: v.vmid } }));
  const remove = (name: string) => void change(({ [name]: _gone, ...rest }) => rest);

  return (
    <ViewFrame title="Templates">
      <Toolbar label="Template actions">
        <label className="inline-field">
          Cluster
          <select value={profile.id} onChange={(e) => setChosen(e.target.value)}>
            {clusters.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={check} disabled={run?.running || !actions.enabled} title={actions.reason}>
          {run?.running ? 'Checking each template…' : 'Run the template check again'}
        </button>
      </Toolbar>
      {!editable && (
        <p className="muted">
          The demo cluster is built in: its catalogue and machine types can be looked at, not edited. Build a template to see the
          builder at work: the demo adds it to its catalogue for this session.
        </p>
      )}
      {secretNeeded && (
        <p className="muted" role="status">
          Not checked: the token secret of {profile.name} is needed to look at its templates (see the banner above). The catalogue
          below is as saved.
        </p>
      )}
      {run?.error && !secretNeeded && <ErrorNotice title="The templates could not be checked" error={run.error} onRetry={check} />}
      {saveError && <ErrorNotice title="The catalogue was not saved" error={saveError} onDismiss={() => setSaveError(undefined)} />}
      <div className="section-head">
        <h2>Catalogue</h2>
        <BuildTemplateButton clusterId={profile.id} primary={Object.keys(profile.templates).length === 0} />
      </div>
      <CatalogueTable
        profile={profile}
        verdicts={verdicts}
        checks={run?.report?.discovery.data.catalogue}
        editable={editable}
        onRemove={remove}
      />
      <h2>Discovered in the cluster</h2>
      {verdicts ? (
        <DiscoveredTable profile={profile} verdicts={verdicts} editable={editable} onAdd={add} />
      ) : (
        <p className="muted">{run?.running ? 'Looking for templates…' : secretNeeded ? 'Not checked: the token secret is needed.' : 'Not checked yet.'}</p>
      )}
      <h2>Machine types</h2>
      <MachineTypesEditor profile={profile} editable={editable} />
    </ViewFrame>
  );
}
