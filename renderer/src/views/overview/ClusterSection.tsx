/**
 * One cluster on the Overview, compact enough that a 3-node cluster and its
 * proxy counts fit above the fold: a banner that is green or red from
 * across the room, with the proxies by state (each count a link to the
 * Proxies view filtered to it), the inventory's own trouble if any, and a
 * row per node with sparklines of the last hour.
 */
import type { ClusterInventory } from '../../../../shared/channels/inventory';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice, StateBadge } from '../../components/common';
import { useHealth, type ClusterHealth } from '../../stores/health';
import { useUi } from '../../stores/ui';
import { NodeRow } from './NodeRow';
import { proxyCounts } from './proxy-counts';
import { useSecretNeeded } from '../../stores/secrets-needed';

export interface ClusterSectionProps {
  profile: ProfileSummary;
  health: ClusterHealth | undefined;
  inventory: ClusterInventory | undefined;
  now: number;
}

function nodesOf(profile: ProfileSummary, health: ClusterHealth | undefined): string[] {
  return [...new Set([...profile.nodes, ...Object.keys(health ?? {})])].sort();
}

function ProxyCounts({ profile, inventory }: { profile: ProfileSummary; inventory: ClusterInventory }) {
  const openProxies = useUi((s) => s.openProxies);
  const counts = proxyCounts(inventory.vms);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  // The name holds the words shown ("1 proxy"), so speech input can say what it sees.
  const word = total === 1 ? 'proxy' : 'proxies';
  return (
    <ul className="proxy-counts" aria-label={`Proxies of ${profile.name} by state`}>
      <li>
        <button
          type="button"
          className="count-link"
          aria-label={`All ${total} ${word} of ${profile.name}`}
          onClick={() => openProxies({ clusterId: profile.id })}
        >
          <span className="count">{total}</span> {word}
        </button>
      </li>
      {counts.map(({ state, count }) => (
        <li key={state} className={count === 0 ? 'zero' : ''}>
          {count === 0 ? (
            <span className="count-link">
              <span className="count">0</span> <StateBadge state={state} />
            </span>
          ) : (
            <button
              type="button"
              className="count-link"
              aria-label={`${count} ${state} in ${profile.name}`}
              onClick={() => openProxies({ clusterId: profile.id, state })}
            >
              <span className="count">{count}</span> <StateBadge state={state} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function ClusterSection({ profile, health, inventory, now }: ClusterSectionProps) {
  const nodes = nodesOf(profile, health);
  const checked = nodes.map((n) => health?.[n]?.latest).filter((l) => l != null);
  const down = checked.filter((l) => !l.ready);
  // Waiting for the token secret is its own state: nothing was checked, so nothing is degraded.
  const secretNeeded = useSecretNeeded(profile.id);
  const level = secretNeeded || checked.length === 0 ? 'unknown' : down.length > 0 ? 'bad' : 'ok';
  const headline = secretNeeded
    ? 'Not checked: the token secret is needed'
    : level === 'unknown'
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
        {/* The name starts with the visible words (WCAG 2.5.3, label in name); the cluster is for a screen reader. */}
        <button type="button" disabled={checking} onClick={() => void checkNow()}>
          {checking ? 'Checking…' : 'Check now'}
          <span className="sr-only"> {profile.name}</span>
        </button>
        <div className="cluster-counts">
          {secretNeeded ? (
            <p className="muted">Proxies: not listed until the token secret is entered.</p>
          ) : inventory ? (
            <ProxyCounts profile={profile} inventory={inventory} />
          ) : (
            <p className="muted">Proxies: not listed yet.</p>
          )}
        </div>
      </header>
      {checkError && <ErrorNotice title="The check could not run" error={checkError} onDismiss={() => setCheckError(undefined)} />}
      {inventory?.status.state === 'degraded' && (
        <p className="inventory-problem" role="status">
          Inventory: {inventory.status.reason}
          {inventory.status.hint && <> What to do: {inventory.status.hint}</>}
        </p>
      )}
      <div className="node-rows" role="group" aria-label={`Nodes of ${profile.name}`}>
        <div className="node-rows-head" aria-hidden="true">
          <span>Node</span>
          <span>CPU, last hour</span>
          <span>Memory, last hour</span>
          <span>API latency, last hour</span>
        </div>
        {nodes.map((n) => (
          <NodeRow key={n} clusterId={profile.id} node={n} health={health?.[n]} now={now} />
        ))}
      </div>
    </section>
  );
}
