import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReport, DoctorRunInput } from '../../../shared/channels/doctor';
import type { SaveProfileInput } from '../../../shared/channels/profiles';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { ConnectWizard } from '../../../renderer/src/views/settings/wizard/ConnectWizard';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { FINGERPRINT, profile, profilesList, report } from './reports';

let stub: StubApi;
let answers: DoctorReport[];
let closed: number;
const runs = () => stub.calls.filter(([c]) => c === 'doctor.run').map(([, i]) => i as DoctorRunInput);
const settle = () => act(async () => undefined);
const dialog = () => screen.getByRole('dialog', { name: 'Connect a cluster' });
const click = (name: string | RegExp) => act(async () => fireEvent.click(within(dialog()).getByRole('button', { name })));
const type = (label: string, value: string) => fireEvent.change(within(dialog()).getByLabelText(label), { target: { value } });

beforeEach(() => {
  stub = createStubApi();
  answers = [];
  closed = 0;
  stub.answer('doctor.run', () => ({ ok: true, value: answers.shift() ?? report() }));
  stub.answer('profiles.save', (input) => ({ ok: true, value: profile({ ...(input as SaveProfileInput).profile }) }));
  useDoctor.setState({ api: stub.api, runs: {} });
  useProfiles.setState({ api: stub.api, list: profilesList([]) });
  render(<ConnectWizard onClose={() => closed++} />);
});
afterEach(cleanup);

async function fillAndCheck(tokenId = 'proxy@pve!ops', secret = 's3cret-token-0123456789') {
  type('Cluster URL', 'https://127.0.0.1:8006');
  type('Token ID', tokenId);
  type('Token secret', secret);
  await click('Check connection');
}

describe('connect wizard', () => {
  it('checks the token id with the shared schema before asking main', async () => {
    type('Cluster URL', 'https://127.0.0.1:8006');
    type('Token ID', 'not a token id');
    await click('Check connection');
    expect(runs()).toHaveLength(0);
    expect(within(dialog()).getByLabelText('Token ID').getAttribute('aria-invalid')).toBe('true');
    expect(dialog().textContent).toContain('must be user@realm!tokenid');
  });

  it('walks trust, a failed privilege check, another token, and saves a pinned profile with the secret', async () => {
    answers = [report({ tls: 'untrusted' }), report({ privileges: 'missing' }), report({ privileges: 'missing' }), report()];
    await fillAndCheck();
    expect(runs()[0]).toMatchObject({ url: 'https://127.0.0.1:8006', tokenId: 'proxy@pve!ops', secret: 's3cret-token-0123456789' });

    expect(within(dialog()).getByRole('heading', { name: '2. Trust the certificate' })).toBeTruthy();
    expect(within(dialog()).getByLabelText('Fingerprint').textContent).toBe(FINGERPRINT);
    expect(within(dialog()).getByRole('alert').textContent).toContain('not signed by a CA this computer trusts');
    await click('Trust this certificate and continue');
    expect(runs()[1]?.tls).toEqual({ mode: 'pin', fingerprint: FINGERPRINT });

    expect(within(dialog()).getByRole('heading', { name: '3. Privileges' })).toBeTruthy();
    expect(within(dialog()).getByRole('table', { name: 'Privilege checks' }).textContent).toContain('Datastore.Allocate');
    expect(within(dialog()).getByLabelText('Commands to grant the privileges').textContent).toContain(
      'pveum acl modify /storage/proxy-seeds',
    );
    await click('Check again');
    expect(within(dialog()).getByRole('heading', { name: '3. Privileges' })).toBeTruthy();

    await click('Use another token');
    type('Token ID', 'proxy@pve!admin');
    type('Token secret', 'other-secret-0123456789');
    await click('Check connection');
    expect(runs()[3]).toMatchObject({ tokenId: 'proxy@pve!admin', tls: { mode: 'pin', fingerprint: FINGERPRINT } });
    expect(within(dialog()).getByRole('heading', { name: '4. Choose what to use' })).toBeTruthy();
    expect(
      within(dialog())
        .getByRole('checkbox', { name: /debian-12-ci/ })
        .hasAttribute('disabled'),
    ).toBe(true);

    type('Cluster name', 'lab');
    await click('Test connection');
    expect(within(dialog()).getByText('Connection test passed: the cluster is ready.')).toBeTruthy();
    await click('Save cluster');
    const save = stub.calls.find(([c]) => c === 'profiles.save')?.[1] as SaveProfileInput;
    expect(save.secret).toBe('other-secret-0123456789');
    expect(save.profile).toMatchObject({
      name: 'lab',
      url: 'https://127.0.0.1:8006',
      tls: { mode: 'pin', fingerprint: FINGERPRINT },
      token: { secretStorage: 'session', tokenId: 'proxy@pve!admin' },
      nodes: ['pv1-1', 'pv1-2'],
      isoStorage: 'proxy-seeds',
      templates: { 'debian-12-proxy': { vmid: 9001 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    });
    expect(closed).toBe(1);
  });

  it("keeps the dialog open with main's refusal when saving fails", async () => {
    stub.answer('profiles.save', () => ({
      ok: false,
      error: { kind: 'permanent', message: 'The OS keyring is locked.', hint: 'Unlock it, or keep the secret for this session.' },
    }));
    await fillAndCheck();
    await click('Save cluster');
    expect(closed).toBe(0);
    const alert = within(dialog()).getByRole('alert');
    expect(alert.textContent).toContain('Permanent');
    expect(alert.textContent).toContain('Unlock it');
  });

  it('says when the doctor itself could not run', async () => {
    stub.answer('doctor.run', () => ({
      ok: false,
      error: { kind: 'transient', message: 'The connection to the cluster timed out.', hint: 'Check the URL and the network.' },
    }));
    await fillAndCheck();
    expect(within(dialog()).getByRole('alert').textContent).toContain('Transient');
    expect(within(dialog()).getByRole('heading', { name: '1. Address and token' })).toBeTruthy();
  });

  it('closes on Escape', async () => {
    await settle();
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(closed).toBe(1);
  });

  // Issue 23, item 14: what a newcomer met in the wizard.
  it('says to keep Privilege Separation ticked and to grant the roles to the token too, as the user guide does', async () => {
    await settle();
    const advice = within(dialog()).getByRole('note', { name: 'Which token' }).textContent ?? '';
    expect(advice).toContain('keep “Privilege Separation” ticked');
    expect(advice).toContain('to the token as well as to its user');
    // The guide's step 3 makes that token and grants both roles to it.
    const guide = readFileSync(join(import.meta.dirname, '../../../docs/user-guide.md'), 'utf8');
    expect(guide).toMatch(/^ *pveum user token add proxy-operator@pve egress-desk --privsep 1$/m);
    expect(guide).not.toMatch(/^ *pveum user token add .*--privsep 0/m);
    for (const [path, role] of [['/', 'ProxyOperator'], ['/storage/proxy-seeds', 'ProxyOperatorSeeds']])
      expect(guide).toContain(`pveum aclmod ${path} -token 'proxy-operator@pve!egress-desk' -role ${role}`);
  });

  it("names the cluster as Proxmox does (/cluster/status), not after the URL's host", async () => {
    answers = [report({ clusterName: 'homelab' })];
    await fillAndCheck();
    expect((within(dialog()).getByLabelText('Cluster name') as HTMLInputElement).value).toBe('homelab');
  });

  it('says a name is taken while it is typed, and Save waits until it is not', async () => {
    useProfiles.setState({ list: profilesList([profile({ id: 'p1', name: 'Homelab' })]) });
    answers = [report({ clusterName: 'homelab' })];
    await fillAndCheck();
    const name = within(dialog()).getByLabelText('Cluster name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(dialog().textContent).toContain('A cluster named “Homelab” is already connected');
    expect(within(dialog()).getByRole('button', { name: 'Save cluster' }).hasAttribute('disabled')).toBe(true);
    type('Cluster name', 'homelab-2');
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
    expect(within(dialog()).getByRole('button', { name: 'Save cluster' }).hasAttribute('disabled')).toBe(false);
  });

  it('says an untrusted certificate is not trusted yet and what to do, never "passed"', async () => {
    answers = [report({ tls: 'first-contact' })];
    await fillAndCheck();
    const checks = within(dialog()).getByRole('list', { name: 'Connection checks' }).textContent ?? '';
    expect(checks).not.toContain('Certificate: passed');
    expect(checks).toContain('Certificate: not trusted yet');
    expect(checks).toContain('compare its fingerprint with the node’s, then choose below how to trust it');
  });
});
