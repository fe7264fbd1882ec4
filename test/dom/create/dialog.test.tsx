import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateProxiesInput, ProxyName } from '../../../shared/channels/tasks';
import type { ProfileSummary } from '../../../shared/domain/profile';
import { CreateProxyDialog } from '../../../renderer/src/views/create/CreateProxyDialog';
import { useCreateDialog } from '../../../renderer/src/views/create/open-state';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { createStubApi, type StubApi } from '../../support/stub-api';

const profile: ProfileSummary = {
  id: 'demo',
  name: 'Demo cluster (simulated)',
  demo: true,
  secretAvailable: true,
  url: 'https://127.0.0.1:8006',
  tls: { mode: 'insecure' },
  token: { secretStorage: 'session', tokenId: 'root@pam!egress' },
  nodes: ['pve1', 'pve2'],
  isoStorage: 'local',
  templates: { 'debian-12': { vmid: 9000 }, 'debian-12-ci-drive': { vmid: 9001 } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 }, medium: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
  createdAt: 'x',
  updatedAt: 'x',
};

function editorText(): string {
  return document.querySelector('.cloud-init-editor')?.shadowRoot?.querySelector('.cm-content')?.textContent ?? '';
}

describe('Create proxy dialog', () => {
  let stub: StubApi;
  beforeEach(() => {
    stub = createStubApi();
    useProfiles.setState({ list: { profiles: [profile], vault: { kind: 'key_file', protected: false, detail: '' } }, error: undefined });
    useTasks.setState({ api: stub.api, selectedId: undefined });
    useCreateDialog.setState({ open: true });
    useUi.setState({ view: 'proxies' });
  });
  afterEach(cleanup);

  async function open() {
    render(<CreateProxyDialog />);
    await screen.findByRole('option', { name: 'debian-12' });
    return screen.getByRole('dialog', { name: 'Create proxy' });
  }

  it('suggests a proxy- name that main will accept, and fills the choices from the cluster profile', async () => {
    const dialog = await open();
    const name = (within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value;
    expect(name).toMatch(/^proxy-/);
    expect(ProxyName.safeParse(name).success).toBe(true);
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(
      expect.arrayContaining([
        'Automatic',
        'pve1',
        'pve2',
        'debian-12',
        'small (1 vCPU, 1024 MiB)',
        'medium (2 vCPU, 2048 MiB, 8 GiB disk)',
      ]),
    );
  });

  it('refuses a name Proxmox or DNS would refuse, with the reason, and sends nothing', async () => {
    const dialog = await open();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Proxy_1' } });
    expect(within(dialog).getByText(/use lower-case letters, digits and dashes/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(stub.calls.some(([c]) => c === 'tasks.createProxies')).toBe(false);
    expect(within(dialog).getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('bulk: a count of five names the proxies it will make and sends one request main accepts', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { parentId: 'p1', taskIds: ['a', 'b', 'c', 'd', 'e'] } }));
    const dialog = await open();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'edge' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Count' }), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Node' }), { target: { value: 'pve2' } });
    expect(within(dialog).getByText('Names will be edge-1 … edge-5.')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create 5 proxies' })));
    const sent = stub.calls.find(([c]) => c === 'tasks.createProxies')?.[1];
    expect(CreateProxiesInput.parse(sent)).toMatchObject({
      clusterId: 'demo',
      node: 'pve2',
      template: 'debian-12',
      machineType: 'small',
      name: 'edge',
      count: 5,
    });
    expect((sent as { cloudInit: string }).cloudInit).toContain('http_port 3128');
    expect(useTasks.getState().selectedId).toBe('p1');
    expect(useUi.getState().view).toBe('tasks');
    expect(useCreateDialog.getState().open).toBe(false);
  });

  it('a preset with a chosen port replaces the user-data', async () => {
    const dialog = await open();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Proxy software' }), { target: { value: 'tinyproxy' } });
    expect((within(dialog).getByRole('textbox', { name: 'Listening port' }) as HTMLInputElement).value).toBe('8888');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Listening port' }), { target: { value: '70000' } });
    expect(within(dialog).getByText('a port from 1 to 65535')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Use preset' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Listening port' }), { target: { value: '9999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use preset' }));
    expect(editorText()).toContain('Port 9999');
    expect(editorText()).not.toContain('http_port');
  });

  it('shows main refusing the create with the class, the message and what to do', async () => {
    stub.answer('tasks.createProxies', () => ({
      ok: false,
      error: {
        kind: 'permanent',
        message: 'The template has a cloud-init drive.',
        hint: 'Remove the drive from the template.',
        field: 'template',
      },
    }));
    const dialog = await open();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toContain('Permanent');
    expect(alert.textContent).toContain('The template has a cloud-init drive.');
    expect(alert.textContent).toContain('Remove the drive from the template.');
    expect(within(dialog).getByRole('combobox', { name: 'Template' }).getAttribute('aria-invalid')).toBe('true');
    expect(useCreateDialog.getState().open).toBe(true);
  });

  it('says why the clusters are missing when the profiles could not be read', async () => {
    useProfiles.setState({ list: undefined, error: { kind: 'transient', message: 'Main is starting.', hint: 'Wait a moment.' } });
    render(<CreateProxyDialog />);
    const alert = within(screen.getByRole('dialog', { name: 'Create proxy' })).getByRole('alert');
    expect(alert.textContent).toMatch(/Transient.*Main is starting\..*Wait a moment\./);
  });

  it('closes on Escape', async () => {
    const dialog = await open();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(useCreateDialog.getState().open).toBe(false);
  });
});
