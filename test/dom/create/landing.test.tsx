/**
 * Create proxy, issue 11: the Node field offers only the nodes main says a
 * create of the chosen template can land on (`placement.landing`), shows the
 * others disabled with main's reason, and says when a node is reached by a
 * clone elsewhere and a move. The renderer judges nothing itself.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeLanding } from '../../../shared/channels/placement';
import { field, openDialog, sent, setUp, stub } from './fixtures';

afterEach(cleanup);

const options = (select: HTMLSelectElement) => [...select.options].map((o) => ({ text: o.text, disabled: o.disabled }));

const localOnPve1: NodeLanding[] = [
  { node: 'pve1', ok: true, templateVmid: 9001, way: 'here', cloneNode: 'pve1' },
  {
    node: 'pve2',
    ok: true,
    templateVmid: 9001,
    way: 'migrate',
    cloneNode: 'pve1',
    note: "clone on pve1, then move to pve2: about 34 s longer (the template's disk is on local-lvm, which is local to pve1)",
    extraSeconds: 34,
  },
  {
    node: 'pve3',
    ok: false,
    templateVmid: 9001,
    reason: "the template's disk is on local-lvm, which is local to pve1, and pve3 has no storage local-lvm to move the copy to",
    hint: 'Choose pve1, give this image a template on pve3 (a template per node in the profile), or put the template’s disks on a storage every node shares.',
  },
];

function answerLanding(nodes: NodeLanding[]) {
  stub.answer('placement.landing', () => ({ ok: true, value: { nodes } }));
}

describe('Create proxy: where the template can land', () => {
  it('asks main for the chosen template and disables the nodes it cannot land on, with the reason', async () => {
    setUp();
    answerLanding(localOnPve1);
    const dialog = await openDialog();
    await act(async () => undefined);
    expect(stub.calls.filter(([c]) => c === 'placement.landing').map(([, i]) => i)).toContainEqual({
      clusterId: 'demo',
      template: 'debian-13-template',
    });
    expect(options(field(dialog, 'Node') as HTMLSelectElement)).toEqual([
      { text: 'Automatic', disabled: false },
      { text: 'pve1', disabled: false },
      { text: 'pve2 (cloned on pve1, then moved)', disabled: false },
      {
        text: "pve3: the template's disk is on local-lvm, which is local to pve1, and pve3 has no storage local-lvm to move the copy to",
        disabled: true,
      },
    ]);
    expect(screen.getByText(/It skips pve3, where a create of this template cannot land\./)).toBeTruthy();
  });

  it('a node reached by a clone and a move says so, and the create is sent for it', async () => {
    setUp();
    answerLanding(localOnPve1);
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['t9'] } }));
    const dialog = await openDialog();
    await act(async () => undefined);
    const node = field(dialog, 'Node') as HTMLSelectElement;
    fireEvent.change(node, { target: { value: 'pve2' } });
    expect(node.value).toBe('pve2');
    expect(screen.getByText(/On pve2: clone on pve1, then move to pve2: about 34 s longer/)).toBeTruthy();
    await act(async () => {
      fireEvent.submit(dialog.querySelector('form')!);
    });
    expect((sent()[0] as { node?: string }).node).toBe('pve2');
  });

  it('a chosen node main then refuses falls back to Automatic; none left is a problem on the Node field', async () => {
    setUp();
    answerLanding(localOnPve1.map((n) => (n.node === 'pve2' ? { node: 'pve2', ok: false, templateVmid: 9001, reason: 'pve2 is down' } : n)));
    const dialog = await openDialog();
    await act(async () => undefined);
    const node = field(dialog, 'Node') as HTMLSelectElement;
    fireEvent.change(node, { target: { value: 'pve2' } });
    expect(node.value).toBe('');
    cleanup();

    setUp();
    answerLanding(localOnPve1.map((n) => ({ node: n.node, ok: false, templateVmid: 9001, reason: `${n.node} is down`, hint: 'Wait for it.' })));
    await openDialog();
    await act(async () => undefined);
    expect(screen.getByText(/No node can take a proxy from this template: pve1: pve1 is down; pve2: pve2 is down/)).toBeTruthy();
  });
});
