import type { ViewId } from '../stores/ui';
import { useConnection } from '../stores/connection';
import { ViewFrame } from './Placeholder';
import { CleanupView } from './cleanup/CleanupView';
import { ProxiesView } from './proxies/ProxiesView';
import { TasksView } from './tasks/TasksView';

const purpose: Record<Exclude<ViewId, 'overview'>, [string, string]> = {
  nodes: ['Nodes', 'Every node of every cluster: status, load, memory and storages.'],
  templates: ['Templates', 'The template catalogue per cluster, with a suitability verdict for each template.'],
  proxies: ['Proxies', 'Every proxy VM: state, address, node, VMID, template and age.'],
  tasks: ['Tasks', 'Running and recent work, step by step, with the Proxmox task log.'],
  cleanup: ['Cleanup', 'Orphaned seed ISOs and half-built proxies, found and removed on request.'],
  settings: ['Settings', 'Clusters, tokens, trust, poll intervals and theme.'],
};

function Overview() {
  const info = useConnection((s) => s.info);
  return (
    <ViewFrame title="Overview">
      <p>Every cluster at a glance: node health, proxies by state, and what needs your attention.</p>
      {info && (
        <dl className="facts">
          <dt>App</dt>
          <dd>
            {info.name} {info.version}
          </dd>
          <dt>Running as</dt>
          <dd>{info.mode === 'electron' ? 'desktop app' : 'browser mode'}</dd>
          <dt>Runtime</dt>
          <dd>
            Node {info.runtime.node}
            {info.runtime.electron ? `, Electron ${info.runtime.electron}` : ''} on {info.runtime.platform}
          </dd>
        </dl>
      )}
    </ViewFrame>
  );
}

export function CurrentView({ view }: { view: ViewId }) {
  if (view === 'overview') return <Overview />;
  if (view === 'proxies') return <ProxiesView />;
  if (view === 'tasks') return <TasksView />;
  if (view === 'cleanup') return <CleanupView />;
  const [title, text] = purpose[view];
  return (
    <ViewFrame title={title}>
      <p>{text}</p>
    </ViewFrame>
  );
}
