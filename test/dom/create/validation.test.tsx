/**
 * Create proxy refuses, in the form and in words, what main's schema would
 * refuse: each sentence names the field and the rule, no zod text reaches
 * the user, and nothing is sent. Bulk names are the ones main makes, each
 * checked; a name a VM or a running create already has is refused too.
 */
import { act, cleanup, fireEvent, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateProxiesInput } from '../../../shared/channels/tasks';
import { bulkProxyNames } from '../../../shared/domain/proxy-names';
import { proxyNames } from '../../../main/services/tasks/requests/proxy-names';
import { field, openDialog, sent, setUp, stub } from './fixtures';

beforeEach(() => setUp());
afterEach(cleanup);

/** What zod says by itself; none of it may reach the user. */
const zodText = /Too big|Too small|Invalid input|expected (string|number|int)|received|<=|>=/;

async function refused(dialog: HTMLElement, field: 'Name' | 'Count') {
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /^Create/ })));
  expect(sent()).toEqual([]);
  const input = within(dialog).getByRole(field === 'Name' ? 'textbox' : 'spinbutton', { name: field });
  expect(input.getAttribute('aria-invalid')).toBe('true');
  expect(dialog.textContent).not.toMatch(zodText);
  const problem = document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]!)!;
  return problem.textContent;
}

function type(dialog: HTMLElement, name: 'Name' | 'Count', value: string) {
  fireEvent.change(field(dialog, name), { target: { value } });
}

describe('Create proxy: names in words', () => {
  const cases: [string, string, RegExp][] = [
    ['uppercase', 'Web-1', /^Names are lower case: write “Web-1” as “web-1”\.$/],
    ['spaces', 'my proxy', /^Names cannot contain spaces: use a dash instead/],
    ['unicode', 'prøxy', /^Names use the plain letters a to z only: “ø” is not one/],
    ['a path', '../x', /^Names cannot contain “\/” or “\.”/],
    ['64 characters', 'a'.repeat(64), /^Names are at most 63 characters: DNS labels and Proxmox allow no more \(this one has 64\)\.$/],
    ['a leading hyphen', '-web', /^Names start with a letter, not a dash\.$/],
    ['a trailing hyphen', 'web-', /^Names end with a letter or a digit, not a dash\.$/],
    ['a leading digit', '1web', /^Names start with a letter, not a digit\.$/],
    ['an underscore', 'web_1', /^Names cannot contain “_”/],
  ];
  for (const [what, name, words] of cases) {
    it(`refuses a name with ${what} in a sentence`, async () => {
      const dialog = await openDialog();
      type(dialog, 'Name', name);
      expect(await refused(dialog, 'Name')).toMatch(words);
    });
  }

  it('sends a name main accepts, and an empty name (one proxy) lets main pick a random one', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['a'] } }));
    const dialog = await openDialog();
    type(dialog, 'Name', '');
    expect(within(dialog).getByText('Left empty, the proxy gets a random proxy-… name.')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(CreateProxiesInput.parse(sent()[0]).name).toBeUndefined();
  });
});

describe('Create proxy: bulk names and the count', () => {
  it('shows the names it will make, the first few and the last, and says how many in the button', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { parentId: 'p', taskIds: ['a', 'b', 'c'] } }));
    const dialog = await openDialog();
    type(dialog, 'Name', 'edge');
    type(dialog, 'Count', '3');
    expect(within(dialog).getByText('Names: edge-1, edge-2, edge-3.')).toBeTruthy();
    type(dialog, 'Count', '20');
    expect(within(dialog).getByText('Names: edge-1, edge-2, edge-3, …, edge-20.')).toBeTruthy();
    type(dialog, 'Count', '3');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create 3 proxies' })));
    expect(CreateProxiesInput.parse(sent()[0])).toMatchObject({ name: 'edge', count: 3 });
  });

  it('refuses a 62-character prefix with a count of 3 in the form, saying how short it must be', async () => {
    const prefix = 'p'.repeat(62);
    // The same rule main applies (it would refuse this request).
    expect(bulkProxyNames(3, prefix).at(-1)).toHaveLength(64);
    expect(() => proxyNames(3, prefix)).toThrow();
    const dialog = await openDialog();
    type(dialog, 'Name', prefix);
    type(dialog, 'Count', '3');
    expect(await refused(dialog, 'Name')).toBe(
      `With a count of 3 the names run up to “${prefix}-3”, 64 characters: names are at most 63 characters (DNS labels and Proxmox allow no more). Shorten the prefix to 61 characters or fewer.`,
    );
  });

  it('refuses an empty prefix with a count above one', async () => {
    const dialog = await openDialog();
    type(dialog, 'Name', '');
    type(dialog, 'Count', '3');
    expect(await refused(dialog, 'Name')).toMatch(/^A create of 3 proxies needs a name prefix: they are named <prefix>-1 … <prefix>-3\./);
  });

  const counts: [string, RegExp][] = [
    ['2.5', /^Count must be a whole number from 1 to 50: 2\.5 proxies cannot be made\.$/],
    ['0', /^Count must be at least 1: 0 proxies is nothing to create\.$/],
    ['51', /^Count is at most 50 proxies at once: create 51 in more than one go\.$/],
    ['', /^Count is how many proxies to create: a whole number from 1 to 50\.$/],
  ];
  for (const [count, words] of counts) {
    it(`refuses a count of ${count === '' ? 'nothing' : count} in words`, async () => {
      const dialog = await openDialog();
      type(dialog, 'Count', count);
      expect(await refused(dialog, 'Count')).toMatch(words);
      expect(within(dialog).getByRole('button', { name: 'Create proxy' })).toBeTruthy();
    });
  }
});

describe('Create proxy: names already taken', () => {
  it('names the VM that already has the name, and where it runs', async () => {
    const dialog = await openDialog();
    type(dialog, 'Name', 'web-1');
    expect(await refused(dialog, 'Name')).toMatch(/^web-1 is already the name of VM 4123 on pve2/);
  });

  it('checks every bulk name: web × 2 makes web-1, which VM 4123 has', async () => {
    const dialog = await openDialog();
    type(dialog, 'Name', 'web');
    type(dialog, 'Count', '2');
    expect(await refused(dialog, 'Name')).toMatch(/^web-1 is already the name of VM 4123 on pve2/);
  });

  it('refuses a name a running create is making, but not one of a finished task', async () => {
    stub.answer('tasks.createProxies', () => ({ ok: true, value: { taskIds: ['a'] } }));
    const dialog = await openDialog();
    type(dialog, 'Name', 'api-2');
    expect(await refused(dialog, 'Name')).toMatch(/^api-2 is already being created by a running task on pve1/);
    type(dialog, 'Name', 'old-1');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create proxy' })));
    expect(sent()).toHaveLength(1);
  });
});
