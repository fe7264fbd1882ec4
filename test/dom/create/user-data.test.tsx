/**
 * The user-data side of Create proxy: a preset applies when chosen (asking
 * first only over edited text), the port follows into the text, and
 * user-data cloud-init would ignore is flagged before submit.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presets } from '../../../renderer/src/views/create/presets';
import { headerProblem } from '../../../shared/domain/user-data';
import { editorText, editText, field, openDialog, sent, setUp, stub } from './fixtures';

beforeEach(() => setUp());
afterEach(cleanup);

const socks = presets.find((p) => p.id === 'socks5')!;
const squid = presets.find((p) => p.id === 'squid')!;
const askDialog = () => screen.queryByRole('dialog', { name: 'Replace the user-data?' });
/** Create asks for a username and password unless unticked (issue 24). */
const on = { credentials: true };

describe('Create proxy: credentials', () => {
  it('asks for a username and password by default, sending placeholders main fills, never a password; unticking drops them', async () => {
    const dialog = await openDialog();
    const box = within(dialog).getByRole('checkbox', { name: 'Require a username and password' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(editorText()).toContain('${EGRESS_DESK_PROXY_PASSWORD_APR1}');
    expect(editorText()).toContain('basic_ncsa_auth');
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    expect(editorText()).toBe(squid.render(3128));
    expect(editorText()).not.toContain('EGRESS_DESK_PROXY');
  });
});

describe('Create proxy: presets', () => {
  it('choosing microsocks puts its SOCKS5 user-data in the editor at once when the text is untouched', async () => {
    const dialog = await openDialog();
    expect(editorText()).toBe(squid.render(3128, on));
    fireEvent.change(field(dialog, 'Proxy software'), { target: { value: 'socks5' } });
    expect(askDialog()).toBeNull();
    expect(editorText()).toBe(socks.render(1080, on));
    expect((field(dialog, 'Listening port') as HTMLInputElement).value).toBe('1080');
  });

  it('asks before replacing edited text: Cancel keeps the edits, Replace puts the preset in', async () => {
    const dialog = await openDialog();
    editText((t) => `${t}# my own line\n`);
    fireEvent.change(field(dialog, 'Proxy software'), { target: { value: 'socks5' } });
    const ask = askDialog()!;
    expect(ask.textContent).toContain(
      'Choosing microsocks (SOCKS5 proxy) replaces the user-data in the editor. Your edits to it are lost.',
    );
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(editorText()).toContain('# my own line');
    expect((field(dialog, 'Proxy software') as HTMLSelectElement).value).toBe('squid');

    fireEvent.change(field(dialog, 'Proxy software'), { target: { value: 'socks5' } });
    fireEvent.click(within(askDialog()!).getByRole('button', { name: 'Replace user-data' }));
    expect(editorText()).toBe(socks.render(1080, on));
    expect(screen.getByRole('dialog', { name: 'Create proxy' })).toBeTruthy();
  });
});

describe('Create proxy: the port follows into the text', () => {
  it('re-renders the untouched preset with the new port', async () => {
    const dialog = await openDialog();
    fireEvent.change(field(dialog, 'Listening port'), { target: { value: '8080' } });
    expect(editorText()).toBe(squid.render(8080, on));
  });

  it('in edited text, rewrites only the line where the preset put the port, keeping the edits', async () => {
    const dialog = await openDialog();
    editText((t) => t.replace('  - "squid"\n', '  - "squid"\n  - curl\n'));
    for (const port of ['9', '90', '909', '9090']) fireEvent.change(field(dialog, 'Listening port'), { target: { value: port } });
    expect(editorText()).toContain('      http_port 9090\n');
    expect(editorText()).not.toContain('3128');
    expect(editorText()).toContain('  - curl\n');
    expect(askDialog()).toBeNull();
  });

  it('when the edits moved the port line, leaves the text and asks whether to put the preset back', async () => {
    const dialog = await openDialog();
    editText((t) => t.replace('http_port 3128', 'http_port 3128 intercept'));
    fireEvent.change(field(dialog, 'Listening port'), { target: { value: '8080' } });
    expect(editorText()).toContain('http_port 3128 intercept');
    const note = within(dialog).getByText(/was not changed to 8080/);
    fireEvent.click(within(note).getByRole('button', { name: 'put the preset back on port 8080' }));
    fireEvent.click(within(askDialog()!).getByRole('button', { name: 'Replace user-data' }));
    expect(editorText()).toBe(squid.render(8080, on));
  });

  it('says an invalid port in words and leaves the text alone', async () => {
    const dialog = await openDialog();
    fireEvent.change(field(dialog, 'Listening port'), { target: { value: '70000' } });
    expect(within(dialog).getByText('The port is a whole number from 1 to 65535.')).toBeTruthy();
    expect(editorText()).toBe(squid.render(3128, on));
  });
});

describe('Create proxy: the user-data header', () => {
  it('flags user-data that cloud-init would ignore, before submit, in words', async () => {
    const dialog = await openDialog();
    editText(() => 'packages:\n  - squid\n');
    expect(within(dialog).getByText(/^The user-data must start with a line cloud-init recognises, such as #cloud-config/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toEqual([]);
  });

  it('accepts a shell script (and does not check it as YAML)', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['a'] } }));
    const dialog = await openDialog();
    editText(() => '#!/bin/sh\nset -e: [\napt-get install -y squid\n');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toHaveLength(1);
  });

  it('knows every start cloud-init acts on', () => {
    for (const ok of [
      '#cloud-config\n{}',
      '  #Cloud-Config\n',
      '#!/bin/bash\n',
      '#include\nhttps://example.com/a',
      'Content-Type: multipart/mixed; boundary="x"\n',
      'MIME-Version: 1.0\n',
      '## template: jinja\n#cloud-config\n',
      '#cloud-boothook\n',
      '#part-handler\n',
    ])
      expect(headerProblem(ok), ok).toBeUndefined();
    for (const bad of ['', 'packages: [squid]', '# cloud-config\n', 'cloud-config\n'])
      expect(headerProblem(bad), bad).toMatch(/^The user-data (is empty|must start)/);
  });

  it('says where cloud-config YAML breaks, in a sentence', async () => {
    const dialog = await openDialog();
    editText(() => '#cloud-config\npackages:\n  - squid\n bad: [\n');
    expect(within(dialog).getByText(/^The user-data is not valid YAML at line \d+: /)).toBeTruthy();
  });
});
