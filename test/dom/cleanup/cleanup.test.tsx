import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CleanupReport } from '../../../shared/channels/cleanup';
import { useCleanup } from '../../../renderer/src/stores/cleanup';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useSettings } from '../../../renderer/src/stores/settings';
import { defaultSettings } from '../../../shared/domain/profile';
import { CleanupView } from '../../../renderer/src/views/cleanup/CleanupView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { cluster, task } from '../proxies/data';

const report: CleanupReport = {
  clusterId: 'demo',
  scannedAt: new Date().toISOString(),
  graceMinutes: 15,
  orphans: [
    {
      node: 'pve1',
      volid: 'local:iso/proxy-gone-seed.iso',
      name: 'proxy-gone',
      sizeBytes: 374_784,
      ageSeconds: 7200,
      reason: 'No VM named proxy-gone exists.',
    },
    {
      node: 'pve2',
      volid: 'local:iso/proxy-old-seed.iso',
      name: 'proxy-old',
      sizeBytes: 374_784,
      ageSeconds: 90_000,
      reason: 'No VM named proxy-old exists.',
    },
  ],
  kept: [
    {
      node: 'pve1',
      volid: 'local:iso/proxy-live-seed.iso',
      name: 'proxy-live',
      sizeBytes: 374_784,
      ageSeconds: 60,
      reason: 'VM 120 uses it.',
    },
  ],
  halfBuilt: [{ node: 'pve2', vmid: 131, name: 'proxy-half', reason: 'Stopped for 3 hours since its create.' }],
  missingSeed: [],
  foreign: [{ node: 'pve1', vmid: 140, name: 'proxy-handmade', reason: 'No Egress Desk mark.' }],
  problems: [],
};

describe('Cleanup view', () => {
  let stub: StubApi;
  beforeEach(() => {
    stub = createStubApi();
    stub.answer('cleanup.scan', () => ({ ok: true, value: report }));
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
  });
  afterEach(cleanup);

  async function scanned() {
    render(<CleanupView />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan' })));
    return screen.getByRole('table', { name: 'Orphan seeds' });
  }

  it('lists orphan seeds with the reason, size and age; kept seeds, half-built and foreign VMs each with theirs', async () => {
    const orphans = await scanned();
    expect(stub.calls.find(([c]) => c === 'cleanup.scan')?.[1]).toEqual({ clusterId: 'demo' });
    const first = within(orphans).getAllByRole('row')[1]!;
    expect(first.textContent).toContain('local:iso/proxy-gone-seed.iso');
    expect(first.textContent).toContain('No VM named proxy-gone exists.');
    expect(first.textContent).toContain('366 KiB');
    expect(first.textContent).toContain('2 h');
    expect(within(screen.getByRole('table', { name: 'Seeds kept' })).getByText('VM 120 uses it.')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Half-built proxies' })).getByText('proxy-half')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Foreign look-alikes' })).getByText('No Egress Desk mark.')).toBeTruthy();
  });

  it('a dry run sends the selection with dryRun and shows what would go', async () => {
    stub.answer('cleanup.deleteSeeds', () => ({ ok: true, value: { taskId: 'dry' } }));
    await scanned();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select local:iso/proxy-gone-seed.iso on pve1' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Dry run' })));
    expect(stub.calls.find(([c]) => c === 'cleanup.deleteSeeds')?.[1]).toEqual({
      clusterId: 'demo',
      seeds: [{ node: 'pve1', volid: 'local:iso/proxy-gone-seed.iso' }],
      dryRun: true,
    });
    act(() =>
      useTasks.getState().upsert(
        task('dry', {
          kind: 'clean-seeds',
          state: 'succeeded',
          progress: 1,
          steps: [],
          upids: [],
          actions: [],
          seeds: { deleted: [{ node: 'pve1', volid: 'local:iso/proxy-gone-seed.iso', reason: 'still an orphan' }], skipped: [] },
        }),
      ),
    );
    const summary = screen.getByRole('region', { name: 'Result summary' });
    expect(summary.textContent).toContain('Dry run of 1 seed');
    expect(summary.textContent).toContain('Would delete local:iso/proxy-gone-seed.iso on pve1: still an orphan');
    // A dry run keeps the selection for the real delete.
    expect((screen.getByRole('checkbox', { name: 'Select local:iso/proxy-gone-seed.iso on pve1' }) as HTMLInputElement).checked).toBe(true);
  });

  it('deletes only after a confirmation that names every seed, then summarises what went and what stayed', async () => {
    stub.answer('cleanup.deleteSeeds', () => ({ ok: true, value: { taskId: 'del' } }));
    await scanned();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all orphan seeds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 seeds?' });
    expect(within(dialog).getByText('local:iso/proxy-gone-seed.iso')).toBeTruthy();
    expect(within(dialog).getByText('local:iso/proxy-old-seed.iso')).toBeTruthy();
    expect(stub.calls.some(([c]) => c === 'cleanup.deleteSeeds')).toBe(false);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 seeds' })));
    expect(stub.calls.find(([c]) => c === 'cleanup.deleteSeeds')?.[1]).toMatchObject({ dryRun: false });
    act(() =>
      useTasks.getState().upsert(
        task('del', {
          kind: 'clean-seeds',
          state: 'succeeded',
          progress: 1,
          steps: [],
          upids: [],
          actions: [],
          message: 'Deleted 1 seed; kept 1.',
          seeds: {
            deleted: [{ node: 'pve1', volid: 'local:iso/proxy-gone-seed.iso', reason: 'still an orphan' }],
            skipped: [{ node: 'pve2', volid: 'local:iso/proxy-old-seed.iso', reason: 'a VM named proxy-old appeared' }],
          },
        }),
      ),
    );
    const summary = screen.getByRole('region', { name: 'Result summary' });
    expect(summary.textContent).toContain('Deleted local:iso/proxy-gone-seed.iso');
    expect(summary.textContent).toContain('Kept local:iso/proxy-old-seed.iso on pve2: a VM named proxy-old appeared');
  });

  it('a chosen grace period goes with the scan and the delete; blank leaves it to the app setting', async () => {
    stub.answer('cleanup.deleteSeeds', () => ({ ok: true, value: { taskId: 'dry' } }));
    render(<CleanupView />);
    fireEvent.change(screen.getByRole('spinbutton', { name: /Keep younger than/ }), { target: { value: '0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan' })));
    expect(stub.calls.find(([c]) => c === 'cleanup.scan')?.[1]).toEqual({ clusterId: 'demo', graceMinutes: 0 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select local:iso/proxy-old-seed.iso on pve2' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Dry run' })));
    expect(stub.calls.find(([c]) => c === 'cleanup.deleteSeeds')?.[1]).toMatchObject({ graceMinutes: 0 });
    fireEvent.change(screen.getByRole('spinbutton', { name: /Keep younger than/ }), { target: { value: '99999' } });
    expect(screen.getByText(/0 to 10080 minutes/)).toBeTruthy();
    fireEvent.change(screen.getByRole('spinbutton', { name: /Keep younger than/ }), { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan again' })));
    expect(stub.calls.filter(([c]) => c === 'cleanup.scan').at(-1)?.[1]).toEqual({ clusterId: 'demo' });
  });

  it('a failed scan shows its class, message and hint', async () => {
    stub.answer('cleanup.scan', () => ({
      ok: false,
      error: { kind: 'not-found', message: 'The ISO storage local is gone.', hint: 'Pick another ISO storage in Settings.' },
    }));
    render(<CleanupView />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Scan' })));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Not found');
    expect(alert.textContent).toContain('Pick another ISO storage in Settings.');
  });
  // Issue 23 item 11: what a newcomer met in Cleanup.
  it('drops a deleted seed from the list as soon as its task says it went, without a scan', async () => {
    stub.answer('cleanup.deleteSeeds', () => ({ ok: true, value: { taskId: 'del' } }));
    await scanned();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select local:iso/proxy-gone-seed.iso on pve1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete 1 seed' })));
    const scans = stub.calls.filter(([c]) => c === 'cleanup.scan').length;
    act(() =>
      useTasks.getState().upsert(
        task('del', {
          kind: 'clean-seeds',
          state: 'succeeded',
          progress: 1,
          steps: [],
          upids: [],
          actions: [],
          seeds: { deleted: [{ node: 'pve1', volid: 'local:iso/proxy-gone-seed.iso', reason: 'still an orphan' }], skipped: [] },
        }),
      ),
    );
    const orphans = screen.getByRole('table', { name: 'Orphan seeds' });
    expect(within(orphans).queryByText('local:iso/proxy-gone-seed.iso')).toBeNull();
    expect(within(orphans).getByText('local:iso/proxy-old-seed.iso')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Orphan seeds (1)' })).toBeTruthy();
    expect(stub.calls.filter(([c]) => c === 'cleanup.scan').length).toBe(scans);
  });

  it('one node that did not answer gives one "not scanned" box, naming it once', async () => {
    const down = 'pve2';
    stub.answer('cleanup.scan', () => ({
      ok: true,
      value: {
        ...report,
        problems: [
          { node: down, message: 'Its seeds could not be listed: no answer.' },
          { node: down, message: 'Its import images could not be listed: no answer.' },
          { node: down, message: 'VM 131 could not be read: no answer.' },
        ],
      },
    }));
    await scanned();
    const boxes = screen.getAllByText('Part of the cluster was not scanned');
    expect(boxes).toHaveLength(1);
    expect(document.body.textContent!.split(`${down}:`).length - 1).toBe(1);
  });

  it("shows the app's grace setting in the empty field, not a stand-in word", () => {
    useSettings.setState({ settings: { ...defaultSettings, cleanupGraceMinutes: 20 } });
    render(<CleanupView />);
    const field = screen.getByRole('spinbutton', { name: /Keep younger than/ }) as HTMLInputElement;
    expect(field.placeholder).toBe('20');
  });
});
