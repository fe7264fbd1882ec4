/**
 * An alert's target as a link to where it lives: a proxy opens the Proxies
 * view with its drawer, a node (or a node's storage) the node's page, a
 * template the Templates view. A target of no known kind stays words.
 */
import type { AlertView } from '../../../../shared/channels/alerts';
import { alertTargetKind } from '../../../../shared/domain/alert-rules';
import { useProxyFocus } from '../../stores/proxy-focus';
import { useUi } from '../../stores/ui';

export function TargetLink({ alert }: { alert: Pick<AlertView, 'clusterId' | 'target' | 'label'> }) {
  const focus = useProxyFocus((s) => s.focus);
  const setView = useUi((s) => s.setView);
  const openNode = useUi((s) => s.openNode);
  const rest = alert.target.slice(alert.target.indexOf(':') + 1);
  const go = (() => {
    switch (alertTargetKind(alert.target)) {
      case 'vm':
        return () => {
          focus(alert.clusterId, Number(rest));
          setView('proxies');
        };
      case 'node':
        return () => openNode({ clusterId: alert.clusterId, node: rest });
      case 'storage':
        // 'storage:pve1/local' is one node's; a shared storage ('storage:nfs') has no one node to open.
        return rest.includes('/') ? () => openNode({ clusterId: alert.clusterId, node: rest.split('/')[0]! }) : undefined;
      case 'template':
        return () => setView('templates');
      default:
        return undefined;
    }
  })();
  if (!go) return <span className="alert-target">{alert.label}</span>;
  return (
    <button type="button" className="link-button alert-target" onClick={go}>
      {alert.label}
    </button>
  );
}
