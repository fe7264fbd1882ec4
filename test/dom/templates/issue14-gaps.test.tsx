/**
 * Issue 14's remaining pieces in the renderer: the builder's custom URL (checked
 * by the shared schema, the stored file name shown, an optional checksum with
 * its algorithm), the wizard's Proxmox VE version notes, the Templates
 * catalogue's per-node templates with their verdicts, and the Cleanup view's
 * unfinished template builds and leftover images.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CleanupReport } from '../../../shared/channels/cleanup';
import type { DoctorReport } from '../../../shared/channels/doctor';
import type { BuildPreflightView, BuildTemplateInput } from '../../../shared/channels/templates';
import { customImageUrlProblem } from '../../../shared/domain/custom-image-url';
import { useCleanup } from '../../../renderer/src/stores/cleanup';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useTemplateBuilder } from '../../../renderer/src/stores/template-builder';
import { CleanupView } from '../../../renderer/src/views/cleanup/CleanupView';
import { ConnectWizard } from '../../../renderer/src/views/settings/wizard/ConnectWizard';
import { TemplateBuilderHost } from '../../../renderer/src/views/templates/builder/BuildTemplateDialog';
import { TemplatesView } from '../../../renderer/src/views/templates/TemplatesView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { cluster } from '../proxies/data';
import { badTemplate, goodTemplate, profile, profilesList, report } from '../settings/reports';

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
});
afterEach(cleanup);
const settle = (ms = 0) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('the builder’s custom URL', () => {
  const URL_OK = 'https://images.example.test/cloud/alma-9.x86_64.img';
  const preflight = (): BuildPreflightView => ({
    ok: true,
    path: 'api',
    node: 'pv1-1',
    image: { id: 'custom', label: URL_OK, url: URL_OK, fileName: 'alma-9.x86_64.qcow2' },
    vmid: 9100,
    name: 'custom-template',
    importStorage: 'local',
    targetStorage: 'local-lvm',
    bridge: 'vmbr0',
    blockers: [],
    warnings: [],
    privileges: [],
    grantCommands: [],
    storages: [
      { storage: 'local', type: 'dir', content: ['import'], active: true, importContent: true, fileBased: true, images: false },
      { storage: 'local-lvm', type: 'lvmthin', content: ['images'], active: true, importContent: false, fileBased: false, images: true },
    ],
    bridges: ['vmbr0'],
    catalogueKey: 'custom',
  });

  it('refuses a URL in the shared schema’s words, shows the stored name of a good one, and sends it with the checksum and algorithm', async () => {
    stub.answer('templates.preflight', () => ({ ok: true, value: preflight() }));
    stub.answer('templates.build', () => ({ ok: true, value: { taskId: 't1' } }));
    useProfiles.setState({ api: stub.api, list: profilesList([profile({ templates: {} })]) });
    useTasks.setState({ api: stub.api, tasks: {}, logs: {} });
    useTemplateBuilder.setState({ clusterId: undefined, taskId: undefined });
    render(<TemplateBuilderHost />);
    act(() => useTemplateBuilder.getState().open('home'));
    await settle(300);
    const dialog = screen.getByRole('dialog', { name: /Build a template on homelab/ });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Image' }), { target: { value: 'custom' } });
    const url = within(dialog).getByLabelText('Image URL');
    fireEvent.change(url, { target: { value: 'ftp://mirror.test/a.qcow2' } });
    await settle(300);
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.textContent).toContain(customImageUrlProblem('ftp://mirror.test/a.qcow2'));
    // Main is not asked about a URL it would refuse.
    const preflights = () => stub.calls.filter(([c]) => c === 'templates.preflight').map(([, i]) => i as BuildTemplateInput);
    expect(preflights().some((i) => i.image.kind === 'custom')).toBe(false);
    expect((within(dialog).getByRole('button', { name: 'Start the build' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(url, { target: { value: 'https://mirror.test/debian.iso' } });
    expect(dialog.textContent).toContain('“debian.iso”');

    fireEvent.change(url, { target: { value: URL_OK } });
    await settle(300);
    expect(url.getAttribute('aria-invalid')).toBeNull();
    expect(dialog.textContent).toContain('stores it as alma-9.x86_64.qcow2');
    expect(preflights().at(-1)?.image).toEqual({ kind: 'custom', url: URL_OK, fileName: 'alma-9.x86_64.qcow2' });

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Checksum algorithm' }), { target: { value: 'sha512' } });
    const sum = within(dialog).getByLabelText('Checksum (sha512)');
    fireEvent.change(sum, { target: { value: 'ab'.repeat(10) } });
    expect(sum.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(sum, { target: { value: `${'ab'.repeat(64)}  alma-9.x86_64.img` } });
    expect(sum.getAttribute('aria-invalid')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Start the build' })));
    const sent = stub.calls.find(([c]) => c === 'templates.build')?.[1] as BuildTemplateInput;
    expect(sent).toMatchObject({
      image: { kind: 'custom', url: URL_OK, fileName: 'alma-9.x86_64.qcow2' },
      checksum: { algorithm: 'sha512', value: 'ab'.repeat(64) },
    });
  });
});

describe('the wizard shows the doctor’s Proxmox VE version notes', () => {
  it('lists the notes under the checks once the token step has passed', async () => {
    const withNotes = (): DoctorReport => {
      const r = report();
      return {
        ...r,
        token: {
          ...r.token,
          data: {
            ...r.token.data,
            version: '8.4.1',
            release: '8.4',
            versionNotes: ['Proxmox VE 8.4: disk resize runs as a task, which Egress Desk waits on; supported.'],
          },
        },
      };
    };
    stub.answer('doctor.run', () => ({ ok: true, value: withNotes() }));
    useDoctor.setState({ api: stub.api, runs: {} });
    useProfiles.setState({ api: stub.api, list: profilesList([]) });
    render(<ConnectWizard onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Connect a cluster' });
    expect(within(dialog).queryByRole('region', { name: 'Proxmox VE version' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Cluster URL'), { target: { value: 'https://127.0.0.1:8006' } });
    fireEvent.change(within(dialog).getByLabelText('Token ID'), { target: { value: 'proxy@pve!ops' } });
    fireEvent.change(within(dialog).getByLabelText('Token secret'), { target: { value: 's3cret-token-0123456789' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Check connection' })));
    const notes = within(dialog).getByRole('region', { name: 'Proxmox VE version' });
    expect(notes.textContent).toContain('Proxmox VE 8.4.1 (release 8.4):');
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Proxmox VE 8.4: disk resize runs as a task, which Egress Desk waits on; supported.']);
  });
});

describe('the catalogue’s per-node templates', () => {
  it('shows each per-node template under its entry with its own verdict', async () => {
    const withChecks = (): DoctorReport => {
      const r = report();
      return {
        ...r,
        discovery: {
          ...r.discovery,
          data: {
            ...r.discovery.data,
            templates: [badTemplate, goodTemplate],
            catalogue: [
              { key: 'debian-12-proxy', node: 'pv1-1', vmid: 9001, perNode: false, verdict: goodTemplate },
              { key: 'debian-12-proxy', node: 'pv1-2', vmid: 9000, perNode: true, verdict: badTemplate },
            ],
          },
        },
      };
    };
    stub.answer('doctor.run', () => ({ ok: true, value: withChecks() }));
    useDoctor.setState({ api: stub.api, runs: {} });
    useProfiles.setState({
      api: stub.api,
      list: profilesList([profile({ templates: { 'debian-12-proxy': { vmid: 9001, perNode: { 'pv1-2': 9000 } } } })]),
    });
    render(<TemplatesView />);
    await settle();
    const table = screen.getByRole('table', { name: 'Template catalogue of homelab' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent ?? '');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/debian-12-proxy \(other nodes\)9001Suitable/);
    expect(rows[1]).toMatch(/debian-12-proxy on pv1-29000Unsuitable/);
    expect(rows[1]).toContain('It has a cloud-init drive on ide2.');
    // Only the entry can be removed, not one node's template of it.
    expect(within(table).getAllByRole('button', { name: /^Remove / })).toHaveLength(1);
  });
});

describe('Cleanup lists what crashed template builds left', () => {
  const scan: CleanupReport = {
    clusterId: 'demo',
    scannedAt: new Date().toISOString(),
    graceMinutes: 15,
    orphans: [],
    kept: [],
    halfBuilt: [],
    missingSeed: [],
    foreign: [],
    problems: [],
    templateBuilds: [
      {
        node: 'pve1',
        vmid: 9100,
        name: 'debian-13-amd64-template',
        buildId: 'b-crashed',
        startedAt: '2025-01-01T10:00:00.000Z',
        reason:
          'A template build that did not finish (build b-crashed, started 2025-01-01T10:00:00Z, 3 h ago): not converted to a template.',
      },
    ],
    importImages: [
      {
        node: 'pve1',
        storage: 'local',
        volid: 'local:import/debian-13-genericcloud-amd64.qcow2',
        sizeBytes: 350 * 1024 * 1024,
        reason: 'Named like the catalogue image Debian 13, and no VM uses it.',
      },
    ],
  };

  it('shows each with its reason, and deletes a VM after a confirmation through the checked clean-up', async () => {
    stub.answer('cleanup.scan', () => ({ ok: true, value: scan }));
    stub.answer('cleanup.deleteTemplateBuilds', () => ({ ok: true, value: { taskIds: ['t9'] } }));
    useInventory.setState({ clusters: [cluster([])], loaded: true });
    useTasks.setState({ tasks: {} });
    useCleanup.setState({
      clusterId: undefined,
      report: undefined,
      selected: new Set(),
      lastRun: undefined,
      error: undefined,
      scanning: false,
    });
    useCleanup.getState().attach(stub.api);
    render(<CleanupView />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan' })));
    const builds = screen.getByRole('table', { name: 'Unfinished template builds' });
    expect(builds.textContent).toContain('A template build that did not finish (build b-crashed, started 2025-01-01T10:00:00Z');
    const images = screen.getByRole('table', { name: 'Leftover downloaded images' });
    expect(images.textContent).toContain('local:import/debian-13-genericcloud-amd64.qcow2');
    expect(images.textContent).toContain('no VM uses it');

    await act(async () => fireEvent.click(within(builds).getByRole('button', { name: 'Delete VM 9100 (debian-13-amd64-template)' })));
    const confirm = screen.getByRole('dialog', { name: 'Delete VM 9100?' });
    expect(confirm.textContent).toContain('still carry the build id b-crashed');
    expect(stub.calls.some(([c]) => c === 'cleanup.deleteTemplateBuilds')).toBe(false);
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: 'Delete VM 9100' })));
    expect(stub.calls.find(([c]) => c === 'cleanup.deleteTemplateBuilds')?.[1]).toEqual({
      clusterId: 'demo',
      builds: [{ node: 'pve1', vmid: 9100, buildId: 'b-crashed' }],
    });
    expect(within(builds).getByRole('status').textContent).toContain('Clean-up started');
  });
});
