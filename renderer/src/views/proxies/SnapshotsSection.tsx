/**
 * The drawer's "Snapshots" (issue 25): the VM's Proxmox snapshots, the app's own (its name's shape, told by main)
 * and anyone else's, oldest first, the one the current state descends from marked; and, when a disk cannot
 * snapshot, the core's words naming it. Read when the drawer shows it and on Refresh, never polled. Reads only:
 * descriptions are an admin's text, shown as text.
 */
import { useCallback, useEffect, useState } from 'react';
import type { VmSnapshots } from '../../../../shared/channels/vm-meta';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { formatDateTime } from '../../format';
import { useTasks } from '../../stores/tasks';
import type { ProxyRow } from './rows';
import './vm-meta.css';

/** The renderer's one time format, its date and clock each kept whole: a narrow drawer breaks between them only. */
function Taken({ at }: { at: string }) {
  const [date, clock] = formatDateTime(at).split(' ');
  return (
    <time dateTime={at}>
      <span className="nowrap">{date}</span> <span className="nowrap">{clock}</span>
    </time>
  );
}

export function SnapshotsSection({ row }: { row: ProxyRow }) {
  const api = useTasks((s) => s.api);
  const [read, setRead] = useState<{ value?: VmSnapshots; error?: AppErrorValue }>();
  const [reading, setReading] = useState(false);
  const [generation, setGeneration] = useState(0);
  const name = row.name ?? '';

  useEffect(() => {
    if (!api || !name) return;
    let current = true;
    setReading(true);
    void api.request['vm.snapshots']({ clusterId: row.clusterId, vmid: row.vmid, name }).then((a) => {
      if (!current) return;
      setReading(false);
      setRead(a.ok ? { value: a.value } : { error: a.error });
    });
    return () => {
      current = false;
    };
  }, [api, row.clusterId, row.vmid, name, generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  const value = read?.value;
  return (
    <section className="drawer-section" aria-label="Snapshots">
      <div className="snapshot-head">
        <h3>Snapshots</h3>
        <button type="button" onClick={refresh} disabled={reading || !name} aria-label="Refresh the snapshots">
          Refresh
        </button>
      </div>
      {read?.error && <ErrorNotice error={read.error} title="The snapshots could not be read" />}
      {reading && !read && <p className="muted">Reading the snapshots from Proxmox…</p>}
      {value && !value.supported && value.why && (
        <p className="snapshot-unsupported" role="note">
          {value.why}
        </p>
      )}
      {value && value.snapshots.length === 0 && <p className="muted">No snapshots.</p>}
      {value && value.snapshots.length > 0 && (
        <table className="check-history snapshot-table">
          <caption className="sr-only">Snapshots of VM {row.vmid}, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Taken</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {value.snapshots.map((s) => (
              <tr key={s.name} aria-current={s.name === value.current ? 'true' : undefined}>
                <td>
                  <span className="mono snapshot-name">{s.name}</span>
                  {s.ours && (
                    <span className="state-badge tone-info snapshot-badge" title="Taken by Egress Desk before a change">
                      Egress Desk’s
                    </span>
                  )}
                  {s.name === value.current && (
                    <span className="state-badge tone-neutral snapshot-badge" title="The VM's current state descends from this snapshot">
                      current
                    </span>
                  )}
                  {s.vmstate && <span className="muted snapshot-note"> with RAM</span>}
                  {s.state && <span className="muted snapshot-note"> ({s.state})</span>}
                </td>
                <td className="snapshot-taken">{s.time ? <Taken at={s.time} /> : '—'}</td>
                <td className="snapshot-description">{s.description || <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
