import type { ViewId } from '../stores/ui';
import { AlertsView } from './alerts/AlertsView';
import { CleanupView } from './cleanup/CleanupView';
import { ProxiesView } from './proxies/ProxiesView';
import { TasksView } from './tasks/TasksView';
import { NodesView } from './nodes/NodesView';
import { OverviewView } from './overview/OverviewView';
import { SettingsView } from './settings/SettingsView';
import { TemplatesView } from './templates/TemplatesView';

export function CurrentView({ view }: { view: ViewId }) {
  if (view === 'overview') return <OverviewView />;
  if (view === 'nodes') return <NodesView />;
  if (view === 'templates') return <TemplatesView />;
  if (view === 'settings') return <SettingsView />;
  if (view === 'proxies') return <ProxiesView />;
  if (view === 'tasks') return <TasksView />;
  if (view === 'cleanup') return <CleanupView />;
  if (view === 'alerts') return <AlertsView />;
  // Every view is handled above; the type makes a new view without a branch a compile error.
  return view satisfies never;
}
