import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaveProfileInput } from '../../../shared/channels/profiles';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { TemplatesView } from '../../../renderer/src/views/templates/TemplatesView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { badTemplate, goodTemplate, profile, profilesList, report } from '../settings/reports';

let stub: StubApi;
const saved = () => stub.calls.filter(([c]) => c === 'profiles.save').map(([, i]) => i as SaveProfileInput);

beforeEach(() => {
  stub = createStubApi();
  const discovered = report();
  discovered.discovery.data.templates = [goodTemplate, badTemplate, { ...goodTemplate, vmid: 9101, node: 'pv1-2' }];
  stub.answer('doctor.run', () => ({ ok: true, value: discovered }));
  stub.answer('profiles.save', (input) => ({ ok: true, value: profile({ ...(input as SaveProfileInput).profile }) }));
  useProfiles.setState({
    api: stub.api,
    list: profilesList([profile({ templates: { 'debian-12-proxy': { vmid: 9001 }, gone: { vmid: 4242 } } })]),
  });
  useDoctor.setState({ api: stub.api, runs: {} });
});
afterEach(cleanup);

const settle = () => act(async () => undefined);

describe('Templates', () => {
  it("judges every catalogued template by the doctor's verdict, for the chosen cluster", async () => {
    render(<TemplatesView />);
    await settle();
    expect(stub.calls.find(([c]) => c === 'doctor.run')?.[1]).toMatchObject({ profileId: 'home' });
    const catalogue = screen.getByRole('table', { name: 'Template catalogue of homelab' });
    expect(within(catalogue).getByRole('row', { name: /debian-12-proxy/ }).textContent).toContain('Suitable');
    expect(within(catalogue).getByRole('row', { name: /gone/ }).textContent).toContain('Not found in the cluster');
  });

  it('shows why a discovered template is unsuitable and how to fix it, and adds one to the catalogue under a free name', async () => {
    render(<TemplatesView />);
    await settle();
    const found = screen.getByRole('table', { name: 'Templates discovered in homelab' });
    const bad = within(found).getByRole('row', { name: /debian-12-ci/ });
    expect(bad.textContent).toContain('Unsuitable');
    expect(bad.textContent).toContain('Fix: Remove the cloud-init drive from the template.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add debian-12-proxy to the catalogue' })));
    expect(saved().at(-1)?.profile.templates).toEqual({
      'debian-12-proxy': { vmid: 9001 },
      gone: { vmid: 4242 },
      'debian-12-proxy-9101': { vmid: 9101 },
    });
    expect(saved().at(-1)?.id).toBe('home');
  });

  it('edits machine types, refusing a nameless one before anything is sent', async () => {
    render(<TemplatesView />);
    await settle();
    const form = screen.getByRole('form', { name: 'Machine types of homelab' });
    fireEvent.change(within(form).getByRole('spinbutton', { name: 'Cores of small' }), { target: { value: '2' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save machine types' })));
    expect(saved().at(-1)?.profile.machineTypes).toEqual({ small: { cores: 2, memoryMiB: 1024 } });
    expect(within(form).getByRole('status').textContent).toBe('Saved.');

    fireEvent.click(within(form).getByRole('button', { name: 'Add machine type' }));
    const before = saved().length;
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save machine types' })));
    expect(saved()).toHaveLength(before);
    expect(within(form).getByRole('alert').textContent).toContain('Invalid input');
  });

  it("shows main's refusal with its class and hint", async () => {
    stub.answer('profiles.save', () => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'configure at least one machine type', hint: 'Add one.', field: 'machineTypes' },
    }));
    render(<TemplatesView />);
    await settle();
    const form = screen.getByRole('form', { name: 'Machine types of homelab' });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove machine type small' }));
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save machine types' })));
    expect(within(form).getByRole('alert').textContent).toContain('configure at least one machine type');
  });

  it('keeps the built-in demo read-only', async () => {
    useProfiles.setState({ list: profilesList([profile({ id: 'demo', name: 'Demo', demo: true })]) });
    render(<TemplatesView />);
    await settle();
    expect(screen.getByRole('button', { name: 'Save machine types' }).hasAttribute('disabled')).toBe(true);
    for (const add of screen.getAllByRole('button', { name: /^Add .* to the catalogue$/ })) expect(add.hasAttribute('disabled')).toBe(true);
  });
});
