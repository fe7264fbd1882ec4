/**
 * The template and node choices of Create proxy: only what the doctor found
 * suitable is offered, best first; unsuitable and unknown templates are
 * listed apart, disabled, with the reason; a down node cannot be chosen.
 */
import { act, cleanup, fireEvent, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/channels/doctor';
import type { Envelope } from '../../../shared/errors';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useHealth } from '../../../renderer/src/stores/health';
import { demoProfile, doctorCalls, doctorReport, field, openDialog, sent, setUp, verdicts } from './fixtures';

afterEach(cleanup);

const options = (select: HTMLSelectElement) =>
  [...select.options].map((o) => ({ text: o.text, disabled: o.disabled, group: (o.parentElement as HTMLOptGroupElement).label ?? '' }));

describe('Create proxy: templates', () => {
  it('defaults to the suitable template although an unsuitable one comes first by name (the demo’s trap)', async () => {
    setUp();
    const dialog = await openDialog();
    const template = field(dialog, 'Template') as HTMLSelectElement;
    // The catalogue's first name is the unsuitable one, as on the built-in demo.
    expect(Object.keys(demoProfile.templates).sort()[0]).toBe('alpine-nonet-template');
    expect(template.value).toBe('debian-13-template');
    expect(doctorCalls()[0]?.[1]).toMatchObject({ profileId: 'demo' });
    // Unsuitable and unknown ones are listed apart, disabled, each with its reason.
    expect(options(template)).toEqual([
      { text: 'debian-13-template', disabled: false, group: '' },
      { text: 'alpine-nonet-template: It has no net0 while the profile sets a bridge.', disabled: true, group: 'Not suitable' },
      { text: 'ubuntu-2604-template: It has a cloud-init drive on ide2.', disabled: true, group: 'Not suitable' },
      { text: 'zz-gone: VMID 4242 was not found in the cluster', disabled: true, group: 'Not suitable' },
    ]);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()[0]).toMatchObject({ template: 'debian-13-template', clusterId: 'demo' });
  });

  it('orders suitable templates best first: one with nothing noted before one with notes', async () => {
    setUp(() => ({
      ok: true,
      value: doctorReport([
        ...verdicts.map((v) =>
          v.vmid === 9001
            ? { ...v, notes: ['The agent option is off; each clone turns it on.'] }
            : v.vmid === 9002
              ? { ...v, suitable: true, problems: [] }
              : v,
        ),
      ]),
    }));
    const dialog = await openDialog();
    const template = field(dialog, 'Template') as HTMLSelectElement;
    expect(template.value).toBe('alpine-nonet-template');
    expect(
      options(template)
        .filter((o) => !o.disabled)
        .map((o) => o.text),
    ).toEqual(['alpine-nonet-template', 'debian-13-template']);
    fireEvent.change(template, { target: { value: 'debian-13-template' } });
    expect(within(dialog).getByText(/Note: The agent option is off/)).toBeTruthy();
  });

  it('picks none while the templates are being checked, says so, and refuses to send', async () => {
    let answer!: (e: Envelope<DoctorReport>) => void;
    setUp(() => new Promise((resolve) => (answer = resolve)));
    const dialog = await openDialog();
    const template = field(dialog, 'Template') as HTMLSelectElement;
    expect(template.value).toBe('');
    expect(template.options[0]!.text).toBe('Checking templates…');
    expect(
      options(template)
        .slice(1)
        .every((o) => o.disabled),
    ).toBe(true);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toEqual([]);
    expect(within(dialog).getByText(/Checking templates… none is picked until the check says which are suitable/)).toBeTruthy();
    await act(async () => answer({ ok: true, value: doctorReport() }));
    expect(template.value).toBe('debian-13-template');
  });

  it('when the check fails, picks none, explains, and lets the admin retry or choose knowingly', async () => {
    setUp(() => ({ ok: false, error: { kind: 'transient', message: 'The node did not answer.', hint: 'Check the network.' } }));
    const dialog = await openDialog();
    const template = field(dialog, 'Template') as HTMLSelectElement;
    expect(template.value).toBe('');
    expect(within(dialog).getByRole('alert').textContent).toContain('The node did not answer.');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toEqual([]);
    expect(within(dialog).getByText(/The template check failed, so none was picked for you/)).toBeTruthy();

    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /again|Retry/i })));
    expect(doctorCalls()).toHaveLength(2);
    fireEvent.change(template, { target: { value: 'ubuntu-2604-template' } });
    expect(template.value).toBe('ubuntu-2604-template');
  });

  it('a check that was not allowed to list the templates counts as failed, not as "none found"', async () => {
    setUp(() => {
      const r = doctorReport([]);
      r.discovery.data.problems = ['GET /nodes/pve1/qemu: 403 Permission check failed (VM.Audit).'];
      return { ok: true, value: r };
    });
    const dialog = await openDialog();
    expect((field(dialog, 'Template') as HTMLSelectElement).value).toBe('');
    expect(within(dialog).getByRole('alert').textContent).toContain('The check could not list the templates: GET /nodes/pve1/qemu: 403');
    expect(options(field(dialog, 'Template') as HTMLSelectElement).filter((o) => o.group === 'Not checked' && !o.disabled)).toHaveLength(4);
  });

  it("reuses the Templates view's run instead of starting another", async () => {
    setUp();
    await act(async () => void (await useDoctor.getState().run('templates:demo', { profileId: 'demo' })));
    expect(doctorCalls()).toHaveLength(1);
    const dialog = await openDialog();
    expect(doctorCalls()).toHaveLength(1);
    expect((field(dialog, 'Template') as HTMLSelectElement).value).toBe('debian-13-template');
  });
});

describe('Create proxy: nodes', () => {
  it('marks a node the inventory lists offline as down and disabled; Automatic stays the default', async () => {
    setUp();
    const dialog = await openDialog();
    const node = field(dialog, 'Node') as HTMLSelectElement;
    expect(options(node)).toEqual([
      { text: 'Automatic', disabled: false, group: '' },
      { text: 'pve1', disabled: false, group: '' },
      { text: 'pve2', disabled: false, group: '' },
      { text: 'pve3 (down)', disabled: true, group: '' },
    ]);
    expect(node.value).toBe('');
  });

  it('a node that goes down while chosen falls back to Automatic', async () => {
    setUp();
    const dialog = await openDialog();
    const node = field(dialog, 'Node') as HTMLSelectElement;
    fireEvent.change(node, { target: { value: 'pve2' } });
    expect(node.value).toBe('pve2');
    act(() =>
      useInventory.setState((s) => ({
        clusters: s.clusters.map((c) => ({ ...c, nodes: c.nodes.map((n) => (n.node === 'pve2' ? { ...n, status: 'offline' } : n)) })),
      })),
    );
    expect(node.value).toBe('');
    expect(within(node).getByRole('option', { name: 'pve2 (down)' })).toBeTruthy();
  });

  it('before any listing, a node the health check cannot reach is down too', async () => {
    setUp();
    act(() => {
      useInventory.setState({ clusters: [] });
      const latest = {
        node: 'pve1',
        ready: false,
        reason: 'Unreachable' as const,
        message: 'no route',
        hint: '',
        latencyMs: 0,
        details: {},
        checkedAt: '2026-01-01T00:00:00Z',
        nextCheckAt: '2026-01-01T00:01:00Z',
      };
      useHealth.setState({ clusters: { demo: { pve1: { node: 'pve1', latest, history: [] } } } });
    });
    const dialog = await openDialog();
    expect(within(field(dialog, 'Node')).getByRole('option', { name: 'pve1 (down)' })).toHaveProperty('disabled', true);
  });
});
