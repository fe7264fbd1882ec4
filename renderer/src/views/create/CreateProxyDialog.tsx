/**
 * Create proxy: cluster, node (or automatic), template, machine type, a
 * suggested name, a count for a bulk create, and the cloud-init user-data
 * in a YAML editor with presets. Only templates the connect doctor found
 * suitable are offered (best first); a down node cannot be chosen; every
 * value is checked with main's own schema and explained in words before it
 * is sent. On success the Tasks view opens on the new task.
 *
 * Long because it is one dialog whose fields depend on each other (cluster,
 * then template, then landing, then the name), held in one component's
 * state; the rules live beside it (form.ts, landing.ts, templates.ts,
 * catalogue.ts), and what is left here is their wiring and the markup.
 */
import { useId, useState, type ReactNode } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { Dialog, useCloseGuard } from '../../components/common/Dialog';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { openTemplateBuilder } from '../../stores/template-builder';
import { useActionsAvailable } from '../../stores/connection';
import { useTasks } from '../../stores/tasks';
import { preferredCluster } from '../../stores/profiles';
import { useUi } from '../../stores/ui';
import { useClusterCatalogue, useNameOwner, type ClusterChoice } from './catalogue';
import { CloudInitEditor } from './CloudInitEditor';
import { checkForm, portNumber, portProblem, suggestName, type CreateForm, type FormProblems } from './form';
import { useCreateDialog, type CreateStart } from './open-state';
import { movePort, withCredentials } from './preset-text';
import { presets, type Preset } from './presets';
import { PresetPicker } from './PresetPicker';
import { landingHelp, landingOf, nodeLabel, noLandingProblem, useLanding, type LandingCheck } from './landing';
import { pickTemplate, templateOptions, useTemplateCheck, type TemplateCheck, type TemplateOptions } from './templates';
import { namesPreview } from './words';
import { NetworkFields } from '../network/NetworkFields';
import { useNetworkChoice } from '../network/network-draft';
import './create.css';

const firstPreset = presets[0]!;
/** The preset, rendering with or without the credential placeholders (issue 24: on unless the admin unticks it). */
const presetOf = (id: string, credentials = true): Preset => withCredentials(presets.find((p) => p.id === id) ?? firstPreset, credentials);

function initialForm(start: CreateStart | undefined): CreateForm {
  return {
    clusterId: start?.clusterId ?? '',
    node: '',
    template: start?.template ?? '',
    machineType: '',
    name: suggestName(),
    count: '1',
    presetId: firstPreset.id,
    port: String(firstPreset.defaultPort),
    cloudInit: presetOf(firstPreset.id).render(firstPreset.defaultPort),
  };
}

/** What the last preset wrote: the text is "edited" while it differs. */
interface Applied {
  presetId: string;
  port: number;
  text: string;
}

/** A question before the user-data is replaced. */
interface Pending {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  run: () => void;
}

/** The chosen cluster, template, machine type and node, or the best ones when the choice is missing or cannot be used. */
function withDefaults(f: CreateForm, cluster: ClusterChoice | undefined, options: TemplateOptions, check: TemplateCheck): CreateForm {
  if (!cluster) return f;
  return {
    ...f,
    clusterId: cluster.id,
    template: pickTemplate(f.template, options, check),
    machineType: cluster.machineTypes.some((m) => m.name === f.machineType) ? f.machineType : (cluster.machineTypes[0]?.name ?? ''),
    node: cluster.nodes.some((n) => n.name === f.node && !n.down) ? f.node : '',
  };
}

/** A node main says a create of the template cannot land on is not kept (issue 11): Automatic instead. */
function withLanding(f: CreateForm, landing: LandingCheck): CreateForm {
  const verdict = f.node === '' ? undefined : landingOf(landing, f.node);
  return verdict && !verdict.ok ? { ...f, node: '' } : f;
}

/** Why the form holds no template, in words. */
function templateProblem(cluster: ClusterChoice | undefined, check: TemplateCheck, options: TemplateOptions): string | undefined {
  if (!cluster) return undefined;
  if (Object.keys(cluster.templates).length === 0) return 'This cluster’s catalogue has no template: add one in Templates.';
  if (check.state === 'checking') return 'Checking templates… none is picked until the check says which are suitable.';
  if (check.state === 'error')
    return 'The template check failed, so none was picked for you: run it again, or choose one you know is suitable.';
  if (options.suitable.length === 0)
    return 'None of this cluster’s templates is suitable (the reasons are in the list): fix one, then check again in Templates.';
  return undefined;
}

function templateHelp(check: TemplateCheck, options: TemplateOptions, chosen: string): string {
  if (check.state === 'checking') return 'Checking templates…';
  if (check.state === 'error') return 'Not checked: the template check failed.';
  const notes = options.suitable.find((o) => o.name === chosen)?.notes ?? [];
  return notes.length > 0 ? `Suitable. Note: ${notes.join(' ')}` : 'Only templates the check found suitable can be chosen.';
}

export function CreateProxyDialog() {
  const setOpen = useCreateDialog((s) => s.setOpen);
  const createProxies = useTasks((s) => s.createProxies);
  const selectTask = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  const { choices, error: loadError } = useClusterCatalogue();
  const [draft, setDraft] = useState<CreateForm>(() => initialForm(useCreateDialog.getState().start));
  const [applied, setApplied] = useState<Applied>(() => ({
    presetId: firstPreset.id,
    port: firstPreset.defaultPort,
    text: presetOf(firstPreset.id).render(firstPreset.defaultPort),
  }));
  const [credentials, setCredentials] = useState(true);
  const [touched, setTouched] = useState(false);
  const [portStuck, setPortStuck] = useState<number>();
  const [pending, setPending] = useState<Pending>();
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sendError, setSendError] = useState<AppErrorValue>();
  const actions = useActionsAvailable();
  const editorHelp = useId();

  const cluster = choices?.find((c) => c.id === draft.clusterId) ?? preferredCluster(choices);
  const { check, retry } = useTemplateCheck(cluster?.id);
  const options = templateOptions(cluster?.templates ?? {}, check);
  const defaulted = withDefaults(draft, cluster, options, check);
  const landing = useLanding(cluster?.id, defaulted.template);
  const form = withLanding(defaulted, landing);
  const takenBy = useNameOwner(form.clusterId);
  const allDown = cluster !== undefined && cluster.nodes.length > 0 && cluster.nodes.every((n) => n.down);
  const { input, problems, names, count } = checkForm(form, {
    takenBy,
    templateProblem: templateProblem(cluster, check, options),
    nodeProblem: allDown
      ? 'Every node of this cluster is down, so there is nowhere to place a proxy: wait for one to come back.'
      : noLandingProblem(landing),
  });
  const shown: FormProblems = tried
    ? { ...problems }
    : { name: problems.name, count: problems.count, cloudInit: problems.cloudInit, node: problems.node };
  if (sendError?.field && !shown[sendError.field as keyof CreateForm]) shown[sendError.field as keyof CreateForm] = sendError.message;
  const edited = form.cloudInit !== applied.text;
  const preset = presetOf(form.presetId, credentials);
  // Issue 24: the bridges of the chosen node, or those every node Automatic may pick has.
  const net = useNetworkChoice(cluster?.id, form.node || undefined, cluster?.nodes.filter((n) => !n.down).map((n) => n.name), sendError);

  const close = () => setOpen(false);
  const { requestClose, question } = useCloseGuard(close, {
    when: touched || edited,
    title: 'Discard this proxy?',
    message: <p>The choices and the user-data you edited are not kept once the dialog closes.</p>,
    discardLabel: 'Discard',
  });

  const update = (patch: Partial<CreateForm>) => {
    setTouched(true);
    setDraft({ ...form, ...patch });
  };

  /** Puts a preset's text in the editor. */
  const apply = (next: Preset, port: number) => {
    const text = next.render(port);
    setDraft((d) => ({ ...d, presetId: next.id, port: String(port), cloudInit: text }));
    setApplied({ presetId: next.id, port, text });
    setPortStuck(undefined);
  };
  /** Runs `run` at once while the text is the preset's, else after asking. */
  const replacing = (what: string, run: () => void) => {
    if (!edited) {
      run();
      return;
    }
    setPending({
      title: 'Replace the user-data?',
      body: <p>{what} replaces the user-data in the editor. Your edits to it are lost.</p>,
      confirmLabel: 'Replace user-data',
      run,
    });
  };

  const choosePreset = (id: string) => {
    const next = presetOf(id, credentials);
    setTouched(true);
    replacing(`Choosing ${next.label}`, () => apply(next, next.defaultPort));
  };

  const changePort = (raw: string) => {
    setTouched(true);
    const port = portNumber(raw);
    if (port === undefined) {
      setDraft({ ...form, port: raw });
      return;
    }
    if (!edited) {
      apply(preset, port);
      return;
    }
    const moved = movePort(form.cloudInit, preset, applied.port, port);
    if (moved === undefined) {
      setDraft({ ...form, port: raw });
      setPortStuck(port);
      return;
    }
    setDraft({ ...form, port: raw, cloudInit: moved });
    setApplied({ presetId: preset.id, port, text: preset.render(port) });
    setPortStuck(undefined);
  };

  const portNote =
    portStuck !== undefined ? (
      <>
        The user-data was edited where the preset set port {applied.port}, so it was not changed to {portStuck}: change it in the text, or{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => replacing(`Putting the ${preset.label} preset back on port ${portStuck}`, () => apply(preset, portStuck))}
        >
          put the preset back on port {portStuck}
        </button>
        .
      </>
    ) : undefined;

  const submit = async () => {
    setTried(true);
    if (!input || !net.ok) return;
    setBusy(true);
    setSendError(undefined);
    const answer = await createProxies(net.check.network ? { ...input, network: net.check.network } : input);
    setBusy(false);
    if (!answer.ok) {
      setSendError(answer.error);
      return;
    }
    selectTask(answer.value.parentId ?? answer.value.taskIds[0]);
    close();
    setView('tasks');
  };

  const nameHelp =
    count > 1 && names.length > 0
      ? `Names: ${namesPreview(names)}.`
      : form.name === ''
        ? 'Left empty, the proxy gets a random proxy-… name.'
        : 'Also the guest’s host name.';
  const templateNode = options.suitable.find((o) => o.name === form.template)?.node;
  const templateHint = problems.template && !tried ? problems.template : templateHelp(check, options, form.template);

  return (
    <Dialog
      title="Create proxy"
      size="wide"
      onClose={requestClose}
      footer={
        <>
          <button type="button" onClick={requestClose}>
            Cancel
          </button>
          <button type="submit" form="create-proxy-form" className="primary" disabled={busy || !actions.enabled} title={actions.reason}>
            {busy ? 'Starting…' : !problems.count && count > 1 ? `Create ${count} proxies` : 'Create proxy'}
          </button>
        </>
      }
    >
      {loadError && <ErrorNotice error={loadError} title="The clusters could not be read" />}
      {sendError && (
        <ErrorNotice
          error={sendError}
          title={sendError.message.includes('may not have completed') ? 'The create’s outcome is unknown' : 'The proxy was not created'}
        />
      )}
      {check.state === 'error' && <ErrorNotice error={check.error} title="The templates could not be checked" onRetry={retry} />}
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
            <select data-autofocus value={form.clusterId} onChange={(e) => update({ clusterId: e.target.value, template: '', node: '' })}>
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
            help={`Automatic picks, among the nodes this template can be cloned onto, the one with the fewest proxies, then the most free memory. A node that is down cannot be chosen.${
              templateNode ? ` The template ${form.template} is on ${templateNode}.` : ''
            }${landingHelp(landing, form.node)}`}
          >
            <select value={form.node} onChange={(e) => update({ node: e.target.value })}>
              <option value="">Automatic</option>
              {cluster?.nodes.map((n) => {
                const verdict = landingOf(landing, n.name);
                return (
                  <option key={n.name} value={n.name} disabled={n.down || verdict?.ok === false}>
                    {nodeLabel(n.name, n.down, verdict)}
                  </option>
                );
              })}
            </select>
          </Field>
          <Field label="Template" problem={shown.template} help={templateHint}>
            <select value={form.template} onChange={(e) => update({ template: e.target.value })}>
              {form.template === '' && (
                <option value="">
                  {check.state === 'checking'
                    ? 'Checking templates…'
                    : options.suitable.length > 0
                      ? 'Choose a template'
                      : 'No suitable template'}
                </option>
              )}
              {options.suitable.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
              {options.unchecked.length > 0 && (
                <optgroup label={check.state === 'checking' ? 'Being checked' : 'Not checked'}>
                  {options.unchecked.map((t) => (
                    <option key={t.name} value={t.name} disabled={check.state === 'checking'}>
                      {t.name}
                    </option>
                  ))}
                </optgroup>
              )}
              {options.refused.length > 0 && (
                <optgroup label="Not suitable">
                  {options.refused.map((t) => (
                    <option key={t.name} value={t.name} disabled>
                      {`${t.name}: ${t.reason}`}
                    </option>
                  ))}
                </optgroup>
              )}
            </select>
          </Field>
          {cluster && (Object.keys(cluster.templates).length === 0 || (check.state !== 'checking' && check.state !== 'error' && options.suitable.length === 0)) && (
            <p className="muted">
              No suitable template here yet.{' '}
              <button type="button" className="link" onClick={() => {
                  close();
                  openTemplateBuilder(cluster.id);
                }}>
                Build a template
              </button>
            </p>
          )}
          <Field label="Machine type" problem={shown.machineType}>
            <select value={form.machineType} onChange={(e) => update({ machineType: e.target.value })}>
              {cluster?.machineTypes.length === 0 && <option value="">No machine type in this cluster’s catalogue</option>}
              {cluster?.machineTypes.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name} ({m.cores} vCPU, {m.memoryMiB} MiB{m.diskGiB ? `, ${m.diskGiB} GiB disk` : ''})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Name" problem={shown.name} help={nameHelp}>
            <input value={form.name} spellCheck={false} autoComplete="off" onChange={(e) => update({ name: e.target.value })} />
          </Field>
          <Field label="Count" problem={shown.count}>
            <input type="number" min={1} step={1} value={form.count} onChange={(e) => update({ count: e.target.value })} />
          </Field>
        </div>
        <NetworkFields {...net.fields} onChange={(patch) => (setTouched(true), net.update(patch))} />
        <PresetPicker
          presetId={form.presetId}
          port={form.port}
          portProblem={portProblem(form.port)}
          portNote={portNote}
          edited={edited}
          onChoose={choosePreset}
          credentials={credentials}
          onCredentials={(on) => {
            setTouched(true);
            const port = portNumber(form.port) ?? preset.defaultPort;
            replacing(on ? 'Asking for a username and password' : 'Dropping the username and password', () => {
              setCredentials(on);
              apply(presetOf(form.presetId, on), port);
            });
          }}
          onPort={changePort}
          onReset={() => {
            const port = portNumber(form.port) ?? preset.defaultPort;
            replacing(`Resetting to the ${preset.label} preset`, () => apply(preset, port));
          }}
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
            presetsAbove
          />
          <span id={editorHelp} className={shown.cloudInit ? 'field-problem' : 'field-help'}>
            {shown.cloudInit ??
              'Starts with #cloud-config; written to the seed ISO byte for byte. Problems are underlined as you type. Tab leaves the editor; Ctrl+] and Ctrl+[ indent and outdent.'}
          </span>
        </div>
      </form>
      {pending && (
        <ConfirmDialog
          title={pending.title}
          confirmLabel={pending.confirmLabel}
          onCancel={() => setPending(undefined)}
          onConfirm={() => {
            pending.run();
            setPending(undefined);
          }}
        >
          {pending.body}
        </ConfirmDialog>
      )}
      {question}
    </Dialog>
  );
}
