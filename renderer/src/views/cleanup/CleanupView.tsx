/**
 * The Cleanup view: scan a cluster for orphaned seed ISOs (each with the
 * reason), half-built proxies and foreign look-alikes; select orphans, try
 * a dry run, delete after a confirmation naming every seed, and read the
 * summary of what went and what stayed.
 */
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { EmptyState } from '../../components/common/EmptyState';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Toolbar } from '../../components/common/Toolbar';
import { RelativeTime } from '../../components/common/Time';
import { seedKey, useCleanup } from '../../stores/cleanup';
import { useActionsAvailable } from '../../stores/connection';
import { useInventory } from '../../stores/inventory';
import { useTasks } from '../../stores/tasks';
import { ViewFrame } from '../Placeholder';
import { RunSummary } from './RunSummary';
import { SeedTable } from './SeedTable';
import { GraceInput } from './GraceInput';
import { TemplateLeftovers } from './TemplateLeftovers';
import { VmList } from './VmList';
import { HalfBuiltActions, MissingSeedActions } from './VmSuggestions';
import './cleanup.css';

export function CleanupView() {
  const clusters = useInventory((s) => s.clusters);
  const s = useCleanup();
  const [confirming, setConfirming] = useState(false);
  const actions = useActionsAvailable();
  const firstCluster = clusters[0]?.clusterId;

  useEffect(() => {
    if (!s.clusterId && firstCluster) s.setCluster(firstCluster);
  }, [s, firstCluster]);

  // What a delete removed leaves the lists as soon as its task says so (a dry run removes nothing).
  const run = s.lastRun;
  const deleted = useTasks((t) => (run && !run.dryRun ? t.tasks[run.taskId]?.seeds?.deleted : undefined));
  const forget = s.forget;
  useEffect(() => {
    if (deleted?.length) forget(deleted);
  }, [deleted, forget]);

  const report = s.report;
  // One box for the nodes that were not scanned, each named once (an offline node fails every read of it).
  const firstProblem = new Map<string, string>();
  for (const p of report?.problems ?? []) if (!firstProblem.has(p.node)) firstProblem.set(p.node, p.message);
  const unscanned = [...firstProblem];
  const chosen = (report?.orphans ?? []).filter((o) => s.selected.has(seedKey(o)));

  return (
    <ViewFrame title="Cleanup">
      <Toolbar label="Cleanup actions">
        <label className="inline-label">
          Cluster
          <select value={s.clusterId ?? ''} onChange={(e) => s.setCluster(e.target.value)}>
            {clusters.map((c) => (
              <option key={c.clusterId} value={c.clusterId}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <GraceInput />
        <button type="button" className="primary" disabled={!s.clusterId || s.scanning} onClick={() => void s.scan()}>
          {s.scanning ? 'Scanning…' : report ? 'Scan again' : 'Scan'}
        </button>
        <span className="toolbar-gap" />
        <button type="button" disabled={chosen.length === 0 || s.submitting} onClick={() => void s.deleteSelected(true)}>
          Dry run
        </button>
        <button
          type="button"
          className="danger"
          disabled={chosen.length === 0 || s.submitting || !actions.enabled}
          title={actions.reason}
          onClick={() => setConfirming(true)}
        >
          Delete selected{chosen.length ? ` (${chosen.length})` : ''}
        </button>
      </Toolbar>
      {s.error && <ErrorNotice error={s.error} title="The cleanup did not run" onRetry={() => void s.scan()} />}
      <RunSummary />
      {!report ? (
        <EmptyState title={s.scanning ? 'Scanning…' : 'Not scanned yet'}>
          A scan lists every seed ISO on the cluster's ISO storage and says, for each, whether a VM still uses it. Nothing is deleted by a
          scan.
        </EmptyState>
      ) : (
        <>
          <p className="muted">
            Scanned <RelativeTime at={report.scannedAt} />; seeds and VMs younger than {report.graceMinutes} minutes are never offered.
          </p>
          {unscanned.length > 0 && (
            <ErrorNotice
              error={{
                kind: 'transient',
                message: unscanned.map(([node, message]) => `${node}: ${message}`).join(' '),
                hint: `Scan again once ${unscanned.length === 1 ? 'the node answers; its' : 'the nodes answer; their'} seeds are not offered meanwhile.`,
              }}
              title="Part of the cluster was not scanned"
              announce={false}
            />
          )}
          <section className="cleanup-section" aria-label="Orphan seeds">
            <h2>Orphan seeds ({report.orphans.length})</h2>
            {report.orphans.length === 0 ? (
              <p>No orphan seed: every seed belongs to a VM or is too young to judge.</p>
            ) : (
              <SeedTable label="Orphan seeds" seeds={report.orphans} selected={s.selected} onToggle={s.toggle} onToggleAll={s.selectAll} />
            )}
          </section>
          <section className="cleanup-section" aria-label="Seeds kept">
            <h2>Seeds kept ({report.kept.length})</h2>
            {report.kept.length > 0 && <SeedTable label="Seeds kept" seeds={report.kept} />}
          </section>
          <VmList
            label="Half-built proxies"
            vms={report.halfBuilt}
            note="Marked VMs, stopped and older than the grace period: a create that never finished, or a proxy stopped outside this app (the ones its own Stop stopped are not listed). Start it, open its task (Resume or Clean up there), or delete it."
            actions={(v) => <HalfBuiltActions clusterId={report.clusterId} vm={v} />}
          />
          <VmList
            label="Proxies missing their seed"
            vms={report.missingSeed}
            note="Marked VMs whose seed ISO is not on the ISO storage; they cannot be rebuilt from it. Recreate one from its row in Proxies."
            actions={(v) => <MissingSeedActions clusterId={report.clusterId} vm={v} />}
          />
          {s.clusterId && (report.templateBuilds !== undefined || report.importImages !== undefined) && (
            <TemplateLeftovers clusterId={s.clusterId} builds={report.templateBuilds ?? []} images={report.importImages ?? []} />
          )}
          <VmList
            label="Foreign look-alikes"
            vms={report.foreign}
            note="Named like proxies but without the Egress Desk mark: shown for information, never touched."
          />
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Delete ${chosen.length} ${chosen.length === 1 ? 'seed' : 'seeds'}?`}
          confirmLabel={`Delete ${chosen.length} ${chosen.length === 1 ? 'seed' : 'seeds'}`}
          danger
          busy={s.submitting}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void s.deleteSelected(false);
          }}
        >
          <p>These ISO files will be deleted from Proxmox after a last check that no VM uses them:</p>
          <ul className="plain-list confirm-list">
            {chosen.map((o) => (
              <li key={seedKey(o)}>
                <code>{o.volid}</code> on {o.node}
              </li>
            ))}
          </ul>
        </ConfirmDialog>
      )}
    </ViewFrame>
  );
}
