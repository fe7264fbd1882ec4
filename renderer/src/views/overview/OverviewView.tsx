/**
 * Every cluster at a glance. On a first run the only cluster is the
 * simulated demo: it says so, and offers the way to connect a real one.
 */
import { useNow } from '../../format/clock';
import type { ProfilesList } from '../../../../shared/channels/profiles';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { EmptyState, ErrorNotice, Toolbar } from '../../components/common';
import { useHealth } from '../../stores/health';
import { useInventory } from '../../stores/inventory';
import { useProfiles } from '../../stores/profiles';
import { useSettings } from '../../stores/settings';
import { useUi } from '../../stores/ui';
import { NewProxyButton } from '../create/NewProxyButton';
import { ViewFrame } from '../Placeholder';
import { AppFacts } from './AppFacts';
import { ClusterSection } from './ClusterSection';
import './overview.css';

/** The Overview's order: real clusters first (a newly connected one is not pushed off screen by the demo), the demo last. */
export function overviewOrder(list: ProfilesList | undefined): ProfileSummary[] {
  return [...(list?.profiles ?? [])].sort((a, b) => Number(a.demo) - Number(b.demo) || a.name.localeCompare(b.name));
}

function ConnectButton({ label }: { label: string }) {
  const setView = useUi((s) => s.setView);
  const openWizard = useSettings((s) => s.openConnectWizard);
  return (
    <button
      type="button"
      className="primary"
      onClick={() => {
        openWizard();
        setView('settings');
      }}
    >
      {label}
    </button>
  );
}

export function OverviewView() {
  const list = useProfiles((s) => s.list);
  const profilesError = useProfiles((s) => s.error);
  const reloadProfiles = useProfiles((s) => s.reload);
  const health = useHealth((s) => s.clusters);
  const healthError = useHealth((s) => s.error);
  const reloadHealth = useHealth((s) => s.reload);
  const inventory = useInventory((s) => s.clusters);
  const now = useNow();
  const clusters = overviewOrder(list);
  const onlyDemo = clusters.length > 0 && clusters.every((c) => c.demo);

  return (
    <ViewFrame title="Overview">
      {profilesError && (
        <ErrorNotice title="The clusters could not be loaded" error={profilesError} onRetry={() => void reloadProfiles()} />
      )}
      {healthError && <ErrorNotice title="Node health could not be loaded" error={healthError} onRetry={() => void reloadHealth()} />}
      {onlyDemo && (
        <div className="demo-banner" role="note" aria-label="Demo mode">
          <p>
            <strong>You are looking at a simulated demo cluster.</strong> Nothing here touches a real Proxmox VE host.
          </p>
          <ConnectButton label="Connect a real cluster" />
        </div>
      )}
      {list && clusters.length === 0 && (
        <EmptyState title="No cluster connected" action={<ConnectButton label="Connect a cluster" />}>
          Connect a Proxmox VE cluster with an API token to see its nodes and proxies here.
        </EmptyState>
      )}
      {!list && !profilesError && <p className="muted">Loading clusters…</p>}
      {clusters.length > 0 && (
        <Toolbar label="Overview actions">
          <NewProxyButton />
        </Toolbar>
      )}
      {clusters.map((p) => (
        <ClusterSection key={p.id} profile={p} health={health[p.id]} inventory={inventory.find((c) => c.clusterId === p.id)} now={now} />
      ))}
      <AppFacts />
    </ViewFrame>
  );
}
