/**
 * Search from anywhere (Ctrl+K), keyboard only: it opens from any view, the
 * field is a combobox whose listbox holds proxies, nodes, templates and
 * tasks from the stores, typing narrows it, the arrows move the active option
 * (aria-activedescendant, aria-selected), Enter opens the proxy's drawer, the
 * node, the template's catalogue or the task, Escape closes, and the
 * shortcut help lists it.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { matchItems, searchItems } from '../../../renderer/src/components/search/search-items';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useProxyFocus } from '../../../renderer/src/stores/proxy-focus';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { useUi } from '../../../renderer/src/stores/ui';
import { cluster, task, vm } from '../proxies/data';
import { profile, profilesList } from '../settings/reports';

const clusters = [cluster([vm(101, { name: 'egress-paris' }), vm(102, { name: 'egress-tokyo', node: 'pve2' })])];
const profiles = [
  profile({ id: 'demo', name: 'Demo cluster (simulated)', demo: true, templates: { 'debian-13-template': { vmid: 9000 } } }),
  profile({ id: 'home', name: 'homelab', templates: { 'debian-12-proxy': { vmid: 9001 } } }),
];
const tasks = { t1: task('t1', { target: 'egress-paris', state: 'succeeded', createdAt: '2026-12-01T10:00:00.000Z' }) };

function setStores() {
  useUi.setState({ view: 'settings', theme: 'system', nodeRequest: undefined, templatesRequest: undefined });
  useInventory.setState({ clusters, loaded: true, revision: 1 });
  useProfiles.setState({ list: profilesList(profiles), error: undefined });
  useTasks.setState({ tasks, selectedId: undefined });
  useProxyFocus.setState({ key: undefined });
}

const open = () => act(() => void fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));
const box = () => screen.getByRole('combobox', { name: 'Search proxies, nodes, templates and tasks' });
const type = (text: string) => act(() => void fireEvent.change(box(), { target: { value: text } }));
const press = (key: string) => act(() => void fireEvent.keyDown(box(), { key }));
const options = () => within(screen.getByRole('listbox', { name: 'Results' })).queryAllByRole('option');
const activeOption = () => document.getElementById(box().getAttribute('aria-activedescendant') ?? '');

describe('search from anywhere (Ctrl+K)', () => {
  beforeEach(setStores);
  afterEach(cleanup);

  it('opens from any view with Ctrl+K as a combobox over proxies, nodes, templates and tasks, focus in the field', () => {
    render(<App />);
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
    open();
    expect(screen.getByRole('dialog', { name: 'Search' })).toBeTruthy();
    expect(document.activeElement).toBe(box());
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(box().getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    const text = options().map((o) => o.textContent);
    expect(text).toEqual([
      expect.stringMatching(/^Proxyegress-paris/),
      expect.stringMatching(/^Proxyegress-tokyo/),
      expect.stringMatching(/^Nodepve1/),
      expect.stringMatching(/^Nodepve2/),
      expect.stringMatching(/^Templatedebian-13-template/),
      expect.stringMatching(/^Templatedebian-12-proxy/),
      expect.stringMatching(/^Task.*egress-paris/),
    ]);
    expect(screen.getByRole('status', { name: 'Search results' }).textContent).toContain('7 results');
  });

  it('narrows as one types, every word anywhere, the name that starts with it first; says when nothing matches', () => {
    render(<App />);
    open();
    type('paris');
    expect(options().map((o) => o.textContent)).toEqual([expect.stringMatching(/^Proxyegress-paris/), expect.stringMatching(/^Task/)]);
    type('tokyo pve2');
    expect(options()).toHaveLength(1);
    type('PVE');
    expect(options()[0]!.textContent).toMatch(/^Nodepve1/);
    type('nothing-like-this');
    expect(options()).toHaveLength(0);
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(box().getAttribute('aria-activedescendant')).toBeNull();
    expect(screen.getByRole('status', { name: 'Search results' }).textContent).toBe('Nothing matches.');
  });

  it('moves the active option with the arrows, held at the ends, announced through aria-activedescendant', () => {
    render(<App />);
    open();
    expect(activeOption()!.textContent).toMatch(/egress-paris/);
    expect(activeOption()!.getAttribute('aria-selected')).toBe('true');
    press('ArrowDown');
    expect(activeOption()!.textContent).toMatch(/egress-tokyo/);
    expect(options().filter((o) => o.getAttribute('aria-selected') === 'true')).toEqual([activeOption()]);
    press('ArrowUp');
    press('ArrowUp');
    expect(activeOption()!.textContent).toMatch(/egress-paris/);
    for (let i = 0; i < 10; i++) press('ArrowDown');
    expect(activeOption()!.textContent).toMatch(/^Task/);
  });

  it('Enter on a proxy opens Proxies with its drawer asked for, and closes the search', () => {
    render(<App />);
    open();
    type('tokyo');
    press('Enter');
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
    expect(useUi.getState().view).toBe('proxies');
    expect(screen.getByRole('complementary', { name: 'Details of egress-tokyo' })).toBeTruthy();
  });

  it('Enter on a node opens its page; on a template, its cluster in Templates; on a task, its details', () => {
    render(<App />);
    open();
    // The node whose name starts with it comes before the proxy that runs on it.
    type('pve2');
    expect(options().map((o) => o.textContent)).toEqual([expect.stringMatching(/^Nodepve2/), expect.stringMatching(/^Proxyegress-tokyo/)]);
    press('Enter');
    expect(useUi.getState().view).toBe('nodes');
    expect(screen.getByRole('heading', { level: 2, name: /^pve2/ })).toBeTruthy();

    open();
    // The demo's template: Templates opens on the demo, not on the real cluster it would start on.
    type('debian-13');
    press('Enter');
    expect(useUi.getState().view).toBe('templates');
    expect((screen.getByRole('combobox', { name: 'Cluster' }) as HTMLSelectElement).value).toBe('demo');

    open();
    type('task paris');
    press('Enter');
    expect(useUi.getState().view).toBe('tasks');
    expect(useTasks.getState().selectedId).toBe('t1');
  });

  it('Escape closes it and gives focus back; Ctrl+K does not open it over another dialog', () => {
    render(<App />);
    const before = screen.getByRole('main');
    before.focus();
    open();
    act(() => void fireEvent.keyDown(box(), { key: 'Escape' }));
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
    expect(document.activeElement).toBe(before);

    act(() => void fireEvent.keyDown(window, { key: '?' }));
    // Not taken from the dialog either: there the key stays the dialog's own (the YAML editor's).
    let notPrevented = false;
    act(() => void (notPrevented = fireEvent.keyDown(window, { key: 'k', ctrlKey: true })));
    expect(notPrevented).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
  });

  it('is listed in the shortcut help, with its keys', () => {
    render(<App />);
    act(() => void fireEvent.keyDown(window, { key: '?' }));
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Ctrl+K', { selector: 'kbd' })).toBeTruthy();
    expect(within(help).getByText('Search proxies, nodes, templates and tasks, from any view')).toBeTruthy();
    expect(within(help).getByRole('region', { name: 'Search (Ctrl+K)' }).textContent).toContain('Close the search');
  });
});

describe('the matching (search-items.ts)', () => {
  const items = searchItems(clusters, profiles, Object.values(tasks));
  it('lists every proxy, node, catalogued template and task, with where it is', () => {
    expect(items.map((i) => `${i.kind} ${i.label}`)).toEqual([
      'proxy egress-paris',
      'proxy egress-tokyo',
      'node pve1',
      'node pve2',
      'template debian-13-template',
      'template debian-12-proxy',
      'task Create egress-paris',
    ]);
    expect(items[1]!.detail).toBe('VM 102 · running · 10.0.0.102 · pve2 · Demo cluster (simulated)');
  });
  it('finds by VMID and address, any case, every word', () => {
    expect(matchItems(items, '102').map((i) => i.label)).toEqual(['egress-tokyo']);
    expect(matchItems(items, '10.0.0.101').map((i) => i.label)).toEqual(['egress-paris']);
    expect(matchItems(items, 'EGRESS create').map((i) => i.label)).toEqual(['Create egress-paris']);
    expect(matchItems(items, 'template 9000').map((i) => i.label)).toEqual(['debian-13-template']);
    expect(matchItems(items, 'homelab').map((i) => i.label)).toEqual(['debian-12-proxy']);
  });
});
