/**
 * Create proxy: cluster, node (or automatic), template, machine type, a
 * suggested name, a count for a bulk create, and the cloud-init user-data
 * in a YAML editor with presets. Checked with main's own schema before it
 * is sent; on success the Tasks view opens on the new task.
 */
import { useId, useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { Dialog } from '../../components/common/Dialog';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { useTasks } from '../../stores/tasks';
import { useUi } from '../../stores/ui';
import { useClusterCatalogue, type ClusterChoice } from './catalogue';
import { CloudInitEditor } from './CloudInitEditor';
import { checkForm, portProblem, suggestName, type CreateForm, type FormProblems } from './form';
import { useCreateDialog } from './open-state';
import { presets } from './presets';
import { PresetPicker } from './PresetPicker';
import './create.css';

const firstPreset = presets[0]!;

function initialForm(): CreateForm {
  return {
    clusterId: '',
    node: '',
    template: '',
    machineType: '',
    name: suggestName(),
    count: '1',
    presetId: firstPreset.id,
    port: String(firstPreset.defaultPort),
    cloudInit: firstPreset.render(firstPreset.defaultPort),
  };
}

/** Picks the first cluster, template and machine type when nothing is chosen yet. */
function withDefaults(f: CreateForm, choices: ClusterChoice[]): CreateForm {
  const cluster = choices.find((c) => c.id === f.clusterId) ?? choices[0];
  if (!cluster) return f;
  return {
    ...f,
    clusterId: cluster.id,
    template: cluster.templates.includes(f.template) ? f.template : (cluster.templates[0] ?? ''),
    machineType: cluster.machineTypes.some((m) => m.name === f.machineType) ? f.machineType : (cluster.machineTypes[0]?.name ?? ''),
    node: cluster.nodes.includes(f.node) ? f.node : '',
  };
}

export function CreateProxyDialog() {
  const setOpen = useCreateDialog((s) => s.setOpen);
  const createProxies = useTasks((s) => s.createProxies);
  const selectTask = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  const { choices, error: loadError } = useClusterCatalogue();
  const [draft, setDraft] = useState<CreateForm>(initialForm);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sendError, setSendError] = useState<AppErrorValue>();
  const editorHelp = useId();

  const form = choices ? withDefaults(draft, choices) : draft;
  const cluster = choices?.find((c) => c.id === form.clusterId);
  const { input, problems } = checkForm(form);
  const shown: FormProblems = tried ? problems : { name: problems.name, count: problems.count };
  if (sendError?.field && !shown[sendError.field as keyof CreateForm]) shown[sendError.field as keyof CreateForm] = sendError.message;
  const update = (patch: Partial<CreateForm>) => setDraft({ ...form, ...patch });
  const count = Number(form.count);

  const submit = async () => {
    setTried(true);
    if (!input) return;
    setBusy(true);
    setSendError(undefined);
    const answer = await createProxies(input);
    setBusy(false);
    if (!answer.ok) {
      setSendError(answer.error);
      return;
    }
    selectTask(answer.value.parentId ?? answer.value.taskIds[0]);
    setOpen(false);
    setView('tasks');
  };

  return (
    <Dialog
      title="Create proxy"
      size="wide"
      onClose={() => setOpen(false)}
      footer={
        <>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="submit" form="create-proxy-form" className="primary" disabled={busy}>
            {busy ? 'Starting…' : count > 1 ? `Create ${count} proxies` : 'Create proxy'}
          </button>
        </>
      }
    >
      {loadError && <ErrorNotice error={loadError} title="The clusters could not be read" />}
      {sendError && <ErrorNotice error={sendError} title="The proxy was not created" />}
      <form
        id="create-proxy-form"
        className="create-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="form-grid">
          <Field label="Cluster" problem={shown.clusterId}>
            <select value={form.clusterId} onChange={(e) => update({ clusterId: e.target.value })}>
              {!choices && <option value="">Loading…</option>}
              {choices?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Node"
            problem={shown.node}
            help="Automatic picks the healthy node with the fewest proxies, then the most free memory."
          >
            <select value={form.node} onChange={(e) => update({ node: e.target.value })}>
              <option value="">Automatic</option>
              {cluster?.nodes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Template" problem={shown.template}>
            <select value={form.template} onChange={(e) => update({ template: e.target.value })}>
              {cluster?.templates.length === 0 && <option value="">No template in this cluster's catalogue</option>}
              {cluster?.templates.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Machine type" problem={shown.machineType}>
            <select value={form.machineType} onChange={(e) => update({ machineType: e.target.value })}>
              {cluster?.machineTypes.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name} ({m.cores} vCPU, {m.memoryMiB} MiB{m.diskGiB ? `, ${m.diskGiB} GiB disk` : ''})
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Name"
            problem={shown.name}
            help={count > 1 && !problems.count ? `Names will be ${form.name}-1 … ${form.name}-${count}.` : 'Also the guest’s host name.'}
          >
            <input value={form.name} spellCheck={false} autoComplete="off" onChange={(e) => update({ name: e.target.value })} />
          </Field>
          <Field label="Count" problem={shown.count}>
            <input type="number" min={1} value={form.count} onChange={(e) => update({ count: e.target.value })} />
          </Field>
        </div>
        <PresetPicker
          presetId={form.presetId}
          port={form.port}
          portProblem={portProblem(form.port)}
          onChange={(presetId, port) => update({ presetId, port })}
          onApply={(text) => update({ cloudInit: text })}
        />
        <div className={`field${shown.cloudInit ? ' field-invalid' : ''}`}>
          <span className="field-label" id={`${editorHelp}-label`}>
            Cloud-init user-data
          </span>
          <CloudInitEditor
            value={form.cloudInit}
            onChange={(cloudInit) => setDraft((d) => ({ ...d, cloudInit }))}
            label="Cloud-init user-data"
            describedBy={editorHelp}
          />
          <span id={editorHelp} className={shown.cloudInit ? 'field-problem' : 'field-help'}>
            {shown.cloudInit ?? 'YAML, written to the seed ISO byte for byte. Problems are underlined as you type.'}
          </span>
        </div>
      </form>
    </Dialog>
  );
}
