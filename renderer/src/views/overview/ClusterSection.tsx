/**
 * One cluster on the Overview: a banner that is green or red from across
 * the room, the proxies by state, the inventory's own trouble if any, and a
 * card per node.
 */
import type { ClusterInventory } from '../../../../shared/channels/inventory';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice, StateBadge } from '../../components/common';
import { useHealth, type ClusterHealth } from '../../stores/health';
import { NodeCard } from './NodeCard';
import { proxyCounts } from './proxy-counts';

export interface ClusterSectionProps {
  profile: ProfileSummary;
  health: ClusterHealth | undefined;
  inventory: ClusterInventory | undefined;
  now: number;
}

function nodesOf(profile: ProfileSummary, health: ClusterHealth | undefined): string[] {
  return [...new Set([...profile.nodes, ...Object.keys(health ?? {})])].sort();
}

export function ClusterSection({ profile, health, inventory, now }: ClusterSectionProps) {
  const nodes = nodesOf(profile, health);
  const checked = nodes.map((n) => health?.[n]?.latest).filter((l) => l != null);
  const down = checked.filter((l) => !l.ready);
  const level = checked.length === 0 ? 'unknown' : down.length > 0 ? 'bad' : 'ok';
  const headline =
    level === 'unknown'
      ? 'Waiting for the first check'
      : down.length > 0
        ? `Degraded: ${down.length} of ${nodes.length} ${nodes.length === 1 ? 'node needs' : 'nodes need'} attention`
        : `Healthy: all ${nodes.length} ${nodes.length === 1 ? 'node' : 'nodes'} ready`;
  const headingId = `cluster-${profile.id}`;
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<AppErrorValue>();
  const checkNow = async () => {
    setChecking(true);
    const answer = await useHealth.getState().checkNow(profile.id);
    setChecking(false);
    setCheckError(answer.ok ? undefined : answer.error);
  };
  return (
    <section className="cluster" aria-labelledby={headingId}>
      <header className={`cluster-banner level-${level}`}>
        <h2 id={headingId}>
          {profile.name}
          {profile.demo && <StateBadge state="demo" label="Simulated" tone="info" />}
        </h2>
        <p role="status" aria-label={`Health of ${profile.name}`} className="cluster-headline">
          {headline}
        </p>
        <button type="button" aria-label={`Recheck ${profile.name}`} disabled={checking} onClick={() => void checkNow()}>
          {checking ? 'Checking…' : 'Check now'}
        </button>
      </header>
      {checkError && <ErrorNotice title="The check could not run" error={checkError} onDismiss={() => setCheckError(undefined)} />}
      {inventory ? (
        <ul className="proxy-counts" aria-label={`Proxies of ${profile.name} by state`}>
          {proxyCounts(inventory.vms).map(({ state, count }) => (
            <li key={state} className={count === 0 ? 'zero' : ''}>
              <span className="count">{count}</span> <StateBadge state={state} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Proxies: not listed yet.</p>
      )}
      {inventory?.status.state === 'degraded' && (
        <p className="inventory-problem" role="status">
          Inventory: {inventory.status.reason}
          {inventory.status.hint && <> What to do: {inventory.status.hint}</>}
        </p>
      )}
      <div className="node-grid">
        {nodes.map((n) => (
          <NodeCard key={n} node={n} health={health?.[n]} now={now} />
        ))}
      </div>
    </section>
  );
}
