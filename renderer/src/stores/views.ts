/** The app's views, in the Nav's order: the one list the UI store, the unsaved-edits guard and the Nav read. */
export const views = [
  { id: 'overview', label: 'Overview' },
  { id: 'nodes', label: 'Nodes' },
  { id: 'templates', label: 'Templates' },
  { id: 'proxies', label: 'Proxies' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'cleanup', label: 'Cleanup' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ViewId = (typeof views)[number]['id'];
