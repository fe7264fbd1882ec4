/**
 * Issue 16: what the Cleanup view suggests for a VM, as real actions on the
 * task channels. A half-built proxy (marked, stopped, older than the grace
 * period): Start it (a proxy stopped by hand), Open its task (a create that
 * stopped: Resume or Clean up there), Delete it (asks first, naming it); an
 * operator-made one asks for the operator warning's acknowledgement first. A
 * proxy missing its seed: Open it in Proxies, where Recreate… rebuilds it.
 * Each button's name starts with its visible words (WCAG 2.5.3), then the VM.
 */
import { useState } from 'react';
import type { VmRow } from '../../../../shared/channels/cleanup';
import type { AppErrorValue } from '../../../../shared/errors';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { useActionsAvailable } from '../../stores/connection';
import { useInventory } from '../../stores/inventory';
import { OperatorAcknowledgement } from '../proxies/actions/ActionTargets';
import { useProxyFocus } from '../../stores/proxy-focus';
import { sortedTasks, useTasks } from '../../stores/tasks';
import { useUi } from '../../stores/ui';

/** The newest create task of this proxy that did not finish, if this app has one. */
function useUnfinishedCreate(clusterId: string, name: string) {
  return useTasks((s) =>
    sortedTasks(s.tasks).find(
      (t) => t.clusterId === clusterId && t.kind === 'create-proxy' && t.target === name && t.state !== 'succeeded',
    ),
  );
}

export function HalfBuiltActions({ clusterId, vm }: { clusterId: string; vm: VmRow }) {
  const power = useTasks((s) => s.power);
  const deleteProxies = useTasks((s) => s.deleteProxies);
  const select = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  const available = useActionsAvailable();
  const task = useUnfinishedCreate(clusterId, vm.name);
  // A marked VM this app did not make is the operator's: each action asks to acknowledge that it may be undone.
  const operatorMade = useInventory(
    (s) => s.clusters.find((c) => c.clusterId === clusterId)?.vms.find((v) => v.vmid === vm.vmid)?.ours === false,
  );
  const [asking, setAsking] = useState<'start' | 'delete'>();
  const [acknowledged, setAcknowledged] = useState(false);
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<AppErrorValue>();
  const answered = (what: string) => (a: { ok: true } | { ok: false; error: AppErrorValue }) => {
    setAsking(undefined);
    if (a.ok) {
      setNote(what);
      setError(undefined);
    } else setError(a.error);
  };
  const target = { vmid: vm.vmid, name: vm.name };
  const start = () =>
    void power({
      clusterId,
      targets: [target],
      action: 'start',
      ...(operatorMade ? { acknowledgeOperatorWarning: true as const } : {}),
    }).then(answered(`Starting ${vm.name}.`));
  const remove = () => void deleteProxies(clusterId, [`vms/${vm.vmid}/${vm.name}`], operatorMade).then(answered(`Deleting ${vm.name}.`));
  const ask = (what: 'start' | 'delete') => {
    setAcknowledged(false);
    setAsking(what);
  };
  return (
    <span className="vm-suggestions">
      <button
        type="button"
        disabled={!available.enabled}
        title={available.reason}
        aria-label={`Start it: ${vm.name}`}
        onClick={() => (operatorMade ? ask('start') : start())}
      >
        Start it
      </button>
      {task && (
        <button
          type="button"
          aria-label={`Open its task: ${vm.name}`}
          onClick={() => {
            select(task.id);
            setView('tasks');
          }}
        >
          Open its task
        </button>
      )}
      <button
        type="button"
        className="danger"
        disabled={!available.enabled}
        title={available.reason}
        aria-label={`Delete it: ${vm.name}`}
        onClick={() => ask('delete')}
      >
        Delete it
      </button>
      {note && <span role="status">{note}</span>}
      {error && <ErrorNotice error={error} title="That did not start" />}
      {asking && (
        <ConfirmDialog
          title={`${asking === 'start' ? 'Start' : 'Delete'} ${vm.name}?`}
          confirmLabel={`${asking === 'start' ? 'Start' : 'Delete'} ${vm.name}`}
          danger={asking === 'delete'}
          busy={operatorMade && !acknowledged}
          onConfirm={asking === 'start' ? start : remove}
          onCancel={() => setAsking(undefined)}
        >
          <p>
            <strong>{vm.name}</strong> (VM {vm.vmid} on {vm.node})
            {asking === 'delete' ? ' and its seed ISO will be deleted from Proxmox. This cannot be undone.' : ' will be started.'}
          </p>
          {operatorMade && <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} first />}
        </ConfirmDialog>
      )}
    </span>
  );
}

export function MissingSeedActions({ clusterId, vm }: { clusterId: string; vm: VmRow }) {
  const focus = useProxyFocus((s) => s.focus);
  const setView = useUi((s) => s.setView);
  return (
    <button
      type="button"
      aria-label={`Open in Proxies (Recreate…): ${vm.name}`}
      onClick={() => {
        focus(clusterId, vm.vmid);
        setView('proxies');
      }}
    >
      Open in Proxies (Recreate…)
    </button>
  );
}
