/**
 * A demo-like cluster for the Create dialog's tests: the alphabetically
 * first template is unsuitable (as on the built-in demo), one node is down,
 * a VM and a running create already hold names.
 */
import { act, render, screen, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import type { DoctorReport, TemplateVerdict } from '../../../shared/channels/doctor';
import type { ProfileSummary } from '../../../shared/domain/profile';
import type { Envelope } from '../../../shared/errors';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useHealth } from '../../../renderer/src/stores/health';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { CreateProxyDialog } from '../../../renderer/src/views/create/CreateProxyDialog';
import { useCreateDialog } from '../../../renderer/src/views/create/open-state';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { cluster, task, vm } from '../proxies/data';
import { report } from '../settings/reports';

export const demoProfile: ProfileSummary = {
  id: 'demo',
  name: 'Demo cluster (simulated)',
  demo: true,
  secretAvailable: true,
  url: 'https://127.0.0.1:8006',
  tls: { mode: 'insecure' },
  token: { secretStorage: 'session', tokenId: 'root@pam!egress' },
  nodes: ['pve1', 'pve2', 'pve3'],
  isoStorage: 'proxy-seeds',
  templates: {
    'alpine-nonet-template': { vmid: 9002 },
    'debian-13-template': { vmid: 9001 },
    'ubuntu-2604-template': { vmid: 9000 },
    'zz-gone': { vmid: 4242 },
  },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 }, medium: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
  createdAt: 'x',
  updatedAt: 'x',
};

const verdict = (vmid: number, name: string, problems: TemplateVerdict['problems'] = [], notes: string[] = []): TemplateVerdict => ({
  vmid,
  name,
  node: 'pve1',
  suitable: problems.length === 0,
  problems,
  notes,
});

export const verdicts: TemplateVerdict[] = [
  verdict(9002, 'alpine-nonet-template', [
    { code: 'no-net0', message: 'It has no net0 while the profile sets a bridge.', fix: 'qm set 9002 --net0 virtio,bridge=vmbr0' },
  ]),
  verdict(9001, 'debian-13-template'),
  verdict(9000, 'ubuntu-2604-template', [
    { code: 'cloud-init-drive', message: 'It has a cloud-init drive on ide2.', fix: 'qm set 9000 --delete ide2' },
  ]),
];

export function doctorReport(templates: TemplateVerdict[] = verdicts): DoctorReport {
  const r = report();
  r.discovery.data.templates = templates;
  return r;
}

export let stub: StubApi;

/** Fresh stores and a stub API; the doctor answers with `verdicts` unless a test says otherwise. */
export function setUp(
  answerDoctor: (input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>> = () => ({ ok: true, value: doctorReport() }),
) {
  stub = createStubApi();
  stub.answer('doctor.run', answerDoctor);
  useProfiles.setState({ list: { profiles: [demoProfile], vault: { kind: 'key_file', protected: false, detail: '' } }, error: undefined });
  useDoctor.setState({ api: stub.api, runs: {} });
  useInventory.setState({
    loaded: true,
    revision: 1,
    clusters: [
      cluster([vm(4123, { name: 'web-1', node: 'pve2' }), vm(4124, { name: undefined })], {
        nodes: [
          { node: 'pve1', status: 'online', storages: [] },
          { node: 'pve2', status: 'online', storages: [] },
          { node: 'pve3', status: 'offline', storages: [] },
        ],
      }),
    ],
  });
  useHealth.setState({ clusters: {}, loaded: true });
  useTasks.setState({
    api: stub.api,
    selectedId: undefined,
    tasks: { t1: task('t1', { target: 'api-2', state: 'running', node: 'pve1' }), t2: task('t2', { target: 'old-1', state: 'succeeded' }) },
  });
  useCreateDialog.setState({ open: true });
  useUi.setState({ view: 'proxies' });
}

/** Renders the dialog and lets the doctor's answer arrive. */
export async function openDialog(): Promise<HTMLElement> {
  render(<CreateProxyDialog />);
  await act(async () => undefined);
  return screen.getByRole('dialog', { name: 'Create proxy' });
}

export const field = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole(name === 'Count' ? 'spinbutton' : /^(Name|Listening port)$/.test(name) ? 'textbox' : 'combobox', { name }) as
    HTMLInputElement | HTMLSelectElement;

export function editorView(): EditorView {
  const content = document.querySelector('.cloud-init-editor')?.shadowRoot?.querySelector('.cm-content');
  const view = content && EditorView.findFromDOM(content as HTMLElement);
  if (!view) throw new Error('no editor');
  return view;
}

export const editorText = () => editorView().state.doc.toString();

/** Types into the editor as a user would: a change the editor makes, not a value set from outside. */
export function editText(change: (text: string) => string) {
  const v = editorView();
  act(() => v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: change(v.state.doc.toString()) }, userEvent: 'input' }));
}

export const sent = () => stub.calls.filter(([c]) => c === 'tasks.createProxies').map(([, i]) => i);
export const doctorCalls = () => stub.calls.filter(([c]) => c === 'doctor.run');
