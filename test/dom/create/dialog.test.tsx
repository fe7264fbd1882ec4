/**
 * The Create proxy dialog as a whole: what it offers, what it sends, how it
 * shows main's refusal, where focus goes, and how it closes (asking first
 * when there are edits; never from an Escape inside the editor).
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { runScopeHandlers } from '@codemirror/view';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateProxiesInput, ProxyName } from '../../../shared/channels/tasks';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { CreateProxyDialog } from '../../../renderer/src/views/create/CreateProxyDialog';
import { useCreateDialog } from '../../../renderer/src/views/create/open-state';
import { render } from '@testing-library/react';
import { editorView, editText, field, openDialog, sent, setUp, stub } from './fixtures';

beforeEach(() => setUp());
afterEach(cleanup);

const isOpen = () => useCreateDialog.getState().open;
const discardQuestion = () => screen.queryByRole('dialog', { name: 'Discard this proxy?' });

describe('Create proxy dialog', () => {
  it('suggests a proxy- name main will accept, fills the choices from the profile, and puts focus on the first field', async () => {
    const dialog = await openDialog();
    const name = (field(dialog, 'Name') as HTMLInputElement).value;
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
        'debian-13-template',
        'small (1 vCPU, 1024 MiB)',
        'medium (2 vCPU, 2048 MiB, 8 GiB disk)',
      ]),
    );
    expect(document.activeElement).toBe(field(dialog, 'Cluster'));
  });

  it('the untouched form sends a request main accepts, then opens Tasks on the new task', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['t-new'] } }));
    const dialog = await openDialog();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(CreateProxiesInput.parse(sent()[0])).toMatchObject({
      clusterId: 'demo',
      template: 'debian-13-template',
      machineType: 'small',
      count: 1,
    });
    expect((sent()[0] as { node?: string }).node).toBeUndefined();
    expect(useTasks.getState().selectedId).toBe('t-new');
    expect(useUi.getState().view).toBe('tasks');
    expect(isOpen()).toBe(false);
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
    const dialog = await openDialog();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toContain('Permanent');
    expect(alert.textContent).toContain('The template has a cloud-init drive.');
    expect(alert.textContent).toContain('Remove the drive from the template.');
    expect(field(dialog, 'Template').getAttribute('aria-invalid')).toBe('true');
    expect(isOpen()).toBe(true);
  });

  it('says why the clusters are missing when the profiles could not be read', () => {
    useProfiles.setState({ list: undefined, error: { kind: 'transient', message: 'Main is starting.', hint: 'Wait a moment.' } });
    render(<CreateProxyDialog />);
    const alert = within(screen.getByRole('dialog', { name: 'Create proxy' })).getByRole('alert');
    expect(alert.textContent).toMatch(/Transient.*Main is starting\..*Wait a moment\./);
  });
});

describe('Create proxy: closing', () => {
  it('closes at once on Escape when nothing was changed', async () => {
    const dialog = await openDialog();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(discardQuestion()).toBeNull();
    expect(isOpen()).toBe(false);
  });

  it('with edits, Escape, Cancel and × each ask "Discard this proxy?"; Keep editing keeps it, Discard closes', async () => {
    const dialog = await openDialog();
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'edge' } });

    fireEvent.keyDown(field(dialog, 'Name'), { key: 'Escape' });
    expect(discardQuestion()).toBeTruthy();
    expect(document.activeElement).toBe(within(discardQuestion()!).getByRole('button', { name: 'Keep editing' }));
    fireEvent.click(within(discardQuestion()!).getByRole('button', { name: 'Keep editing' }));
    expect(discardQuestion()).toBeNull();
    expect(isOpen()).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(discardQuestion()).toBeTruthy();
    // Escape in the question answers the question only.
    fireEvent.keyDown(discardQuestion()!, { key: 'Escape' });
    expect(discardQuestion()).toBeNull();
    expect(isOpen()).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(discardQuestion()!).getByRole('button', { name: 'Discard' }));
    expect(isOpen()).toBe(false);
  });

  it('edited user-data alone also asks', async () => {
    const dialog = await openDialog();
    editText((t) => `${t}# mine\n`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(discardQuestion()).toBeTruthy();
  });
});

describe('Create proxy: the editor is not a trap', () => {
  it('Escape inside the editor keeps the dialog open and asks nothing', async () => {
    await openDialog();
    editText((t) => `${t}# mine\n`);
    fireEvent.keyDown(editorView().contentDOM, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(isOpen()).toBe(true);
    expect(discardQuestion()).toBeNull();
  });

  it('Tab is not bound in the editor, so it moves focus like from any field; Ctrl+] indents', async () => {
    await openDialog();
    const view = editorView();
    const key = (init: KeyboardEventInit) => runScopeHandlers(view, new KeyboardEvent('keydown', init), 'editor');
    expect(key({ key: 'Tab', code: 'Tab', keyCode: 9 })).toBe(false);
    expect(key({ key: 'Tab', code: 'Tab', keyCode: 9, shiftKey: true })).toBe(false);
    expect(key({ key: ']', code: 'BracketRight', keyCode: 221, ctrlKey: true })).toBe(true);
    expect(screen.getByText(/Tab leaves the editor; Ctrl\+\] and Ctrl\+\[ indent and outdent\./)).toBeTruthy();
  });
});
