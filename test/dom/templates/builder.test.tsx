/**
 * Issue 14: the template builder's form, its preflight (gaps in words with the fix commands),
 * Start, the progress with the download's bytes and rate from the task log, and the shell
 * path with Verify on a release too old for the API.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../shared/channels/tasks';
import type { BuildPreflightView, BuildTemplateInput } from '../../../shared/channels/templates';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useTemplateBuilder } from '../../../renderer/src/stores/template-builder';
import { TemplateBuilderHost } from '../../../renderer/src/views/templates/builder/BuildTemplateDialog';
import { TemplatesView } from '../../../renderer/src/views/templates/TemplatesView';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList, report } from '../settings/reports';

const debian = catalogueImage('debian-13-amd64')!;
const HEX = 'ab'.repeat(64);

function preflight(more: Partial<BuildPreflightView> = {}): BuildPreflightView {
  return {
    ok: true,
    path: 'api',
    node: 'pv1-1',
    release: '9.2.20',
    image: { id: debian.id, label: debian.label, url: debian.url, fileName: debian.fileName, approxBytes: debian.approxBytes },
    checksumList: { algorithm: 'sha512', url: debian.checksum.listUrl, entry: debian.checksum.listEntry },
    vmid: 9100,
    name: 'debian-13-amd64-template',
    importStorage: 'local',
    targetStorage: 'local-lvm',
    bridge: 'vmbr0',
    blockers: [],
    warnings: [],
    privileges: [],
    grantCommands: [],
    storages: [
      { storage: 'local', type: 'dir', content: ['iso', 'import'], active: true, importContent: true, fileBased: true, images: false },
      { storage: 'local-lvm', type: 'lvmthin', content: ['images'], active: true, importContent: false, fileBased: false, images: true },
    ],
    bridges: ['vmbr0', 'vmbr1'],
    catalogueKey: debian.id,
    ...more,
  };
}

let stub: StubApi;
const calls = (c: string) => stub.calls.filter(([n]) => n === c).map(([, i]) => i as BuildTemplateInput);

beforeEach(() => {
  stub = createStubApi();
  stub.answer('doctor.run', () => ({ ok: true, value: report() }));
  useProfiles.setState({ api: stub.api, list: profilesList([profile({ templates: {} })]) });
  useDoctor.setState({ api: stub.api, runs: {} });
  useTasks.setState({ api: stub.api, tasks: {}, logs: {} });
  useTemplateBuilder.setState({ clusterId: undefined, taskId: undefined });
});
afterEach(cleanup);

const settle = (ms = 300) => act(() => new Promise((r) => setTimeout(r, ms)));

function task(more: Partial<TaskView> = {}): TaskView {
  const names = ['preflight', 'download', 'create-vm', 'convert', 'verify', 'cleanup-image', 'catalogue'];
  return {
    id: 't1',
    kind: 'build-template',
    clusterId: 'home',
    target: 'debian-13-amd64-template',
    node: 'pv1-1',
    state: 'running',
    progress: 0.2,
    steps: names.map((name, i) => ({
      name,
      state: i === 0 ? 'done' : i === 1 ? 'running' : 'pending',
      ...(i === 1 ? { upid: 'UPID:pv1-1:0001:0002:0003:download:x.qcow2:root@pam:' } : {}),
    })),
    upids: [],
    createdAt: new Date().toISOString(),
    attempts: 1,
    actions: ['cancel'],
    ...more,
  };
}

describe('Build a template', () => {
  it('opens from Templates with Debian 13 amd64, runs the preflight, shows the checksum list as text, and starts', async () => {
    stub.answer('templates.preflight', () => ({ ok: true, value: preflight() }));
    stub.answer('templates.build', () => ({ ok: true, value: { taskId: 't1' } }));
    render(
      <>
        <TemplatesView />
        <TemplateBuilderHost />
      </>,
    );
    await settle(0);
    fireEvent.click(screen.getByRole('button', { name: 'Build a template' }));
    await settle();
    const dialog = screen.getByRole('dialog', { name: /Build a template on homelab/ });
    expect((within(dialog).getByRole('combobox', { name: 'Image' }) as HTMLSelectElement).value).toBe('debian-13-amd64');
    expect(calls('templates.preflight').at(-1)).toMatchObject({
      clusterId: 'home',
      node: 'pv1-1',
      image: { kind: 'catalogue', id: debian.id },
    });
    // The list's address is text to copy, not a link to the internet.
    expect(within(dialog).getByText(debian.checksum.listUrl).tagName).toBe('CODE');
    expect(within(dialog).queryByRole('link')).toBeNull();
    // Only storages that can: disks for the template, import content for the download.
    const importBox = within(dialog).getByRole('combobox', { name: 'Download to (import storage)' });
    expect(
      within(importBox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['local (dir)']);
    expect((within(dialog).getByRole('textbox', { name: 'VMID' }) as HTMLInputElement).value).toBe('9100');
    expect(dialog.textContent).toContain('Ready: the node downloads Debian 13 (trixie) genericcloud, amd64');

    // A pasted line of the list: a wrong one is refused in words; the right one is sent as its value.
    const sum = within(dialog).getByRole('textbox', { name: 'Checksum (sha512)' });
    fireEvent.change(sum, { target: { value: 'nonsense' } });
    expect(within(dialog).getByText(/Not a sha512 value/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Start the build' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(sum, { target: { value: `${HEX.toUpperCase()}  ${debian.fileName}` } });
    await settle();
    const start = within(dialog).getByRole('button', { name: 'Start the build' }) as HTMLButtonElement;
    expect(start.disabled).toBe(false);
    await act(async () => fireEvent.click(start));
    expect(calls('templates.build').at(-1)).toMatchObject({
      clusterId: 'home',
      node: 'pv1-1',
      vmid: 9100,
      checksum: { algorithm: 'sha512', value: HEX },
    });

    // Progress: the steps, and the download's bytes and rate from wget's rows in the log.
    act(() => {
      useTasks.getState().upsert(task());
      useTasks.getState().addLogLines('t1', 'UPID:pv1-1:0001:0002:0003:download:x.qcow2:root@pam:', [
        { n: 1, t: `Length: ${debian.approxBytes} (350M) [application/octet-stream]` },
        { n: 2, t: '     0K ........ ........ ........ ........  9% 12.3M 27s' },
        { n: 3, t: ' 32768K ........ ........ ........ ........ 18% 11.9M 25s' },
      ]);
    });
    const bar = within(dialog).getByRole('progressbar', { name: 'Download' });
    expect(bar.closest('.progress')?.textContent).toContain('64.0 MiB of 350.0 MiB · 11.9 MiB/s · 25s left');
    expect(within(dialog).getByText('Download the image on the node')).toBeTruthy();

    // The result lands with its verdict.
    act(() =>
      useTasks.getState().upsert(
        task({
          state: 'succeeded',
          actions: [],
          message:
            'Template debian-13-amd64-template (VMID 9100 on pv1-1) is built and Suitable; added to the catalogue as "debian-13-amd64".',
          template: {
            catalogueKey: debian.id,
            node: 'pv1-1',
            vmid: 9100,
            name: 'debian-13-amd64-template',
            verdict: { vmid: 9100, name: 'debian-13-amd64-template', node: 'pv1-1', suitable: true, problems: [], notes: [] },
            catalogue: 'added',
            imageKept: false,
          },
        }),
      ),
    );
    expect(dialog.querySelector('.builder-result')?.textContent).toContain('VMID 9100 on pv1-1');
    expect(dialog.querySelector('.builder-result')?.textContent).toContain('Suitable');
    expect(within(dialog).getByRole('button', { name: 'Create a proxy from it' })).toBeTruthy();
  });

  it('names each privilege gap and the missing import content in words, with the commands to copy; Start stays off', async () => {
    stub.answer('templates.preflight', () => ({
      ok: true,
      value: preflight({
        ok: false,
        importStorage: undefined,
        storages: preflight().storages.map((s) => ({ ...s, importContent: false, content: s.content.filter((c) => c !== 'import') })),
        blockers: [
          {
            code: 'no-import-storage',
            message: 'No storage on pv1-1 holds import content. local could: it is file based.',
            fix: 'pvesm set local --content iso,import',
          },
          { code: 'privileges', message: 'The token lacks…', fix: 'pveum …' },
        ],
        privileges: [{ path: '/nodes/pv1-1', missing: ['Sys.AccessNetwork'], why: 'download-url from this node' }],
        grantCommands: [
          "pveum role add EgressDeskImageDownload -privs 'Sys.Audit Sys.AccessNetwork'",
          "pveum aclmod /nodes/pv1-1 -token 'proxy@pve!desk' -role EgressDeskImageDownload",
        ],
      }),
    }));
    act(() => useTemplateBuilder.getState().open('home'));
    render(<TemplateBuilderHost />);
    await settle();
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('No storage on pv1-1 holds import content.');
    expect(within(dialog).getByLabelText('commands for no-import-storage').textContent).toBe('pvesm set local --content iso,import');
    expect(dialog.textContent).toContain('Sys.AccessNetwork on /nodes/pv1-1: needed to download-url from this node.');
    expect(within(dialog).getByLabelText('pveum commands').textContent).toContain('aclmod /nodes/pv1-1');
    expect(within(dialog).getByRole('button', { name: 'Copy pveum commands' })).toBeTruthy();
    expect(within(dialog).getByText(/No storage on this node takes import content/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Start the build' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('on a release too old for the API: the shell commands as one block, and Verify runs the doctor', async () => {
    stub.answer('templates.preflight', () => ({
      ok: true,
      value: preflight({
        ok: false,
        path: 'shell',
        release: '7.4-19',
        reason: 'Proxmox VE 7.4-19 cannot download a disk image',
        shell: 'set -e\nwget -O …\nqm template 9100',
      }),
    }));
    stub.answer('templates.verify', () => ({
      ok: true,
      value: {
        verdict: { vmid: 9100, name: 'debian-13-amd64-template', node: 'pv1-1', suitable: true, problems: [], notes: [] },
        catalogue: 'added',
      },
    }));
    act(() => useTemplateBuilder.getState().open('home'));
    render(<TemplateBuilderHost />);
    await settle();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('alert').textContent).toContain('Proxmox VE 7.4-19 on pv1-1 cannot build a template over the API.');
    expect(within(dialog).getByLabelText('shell commands').textContent).toBe('set -e\nwget -O …\nqm template 9100');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Verify VM 9100' })));
    expect(stub.calls.find(([c]) => c === 'templates.verify')?.[1]).toEqual({ clusterId: 'home', vmid: 9100, key: debian.id });
    expect(dialog.textContent).toContain('Added to the catalogue as “debian-13-amd64”.');
  });
});
