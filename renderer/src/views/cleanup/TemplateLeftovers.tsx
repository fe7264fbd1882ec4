/**
 * What crashed template builds left (issue 14): VMs carrying the builder's
 * build id that were never converted to a template, each with its reason and
 * a Delete that goes through the build's own clean-up (main destroys the VM
 * only when, right before the destroy, its description still carries that
 * build id at that VMID); and leftover downloaded images in `import` content,
 * listed with their reason.
 */
import { useState } from 'react';
import type { ImportImageRow, TemplateBuildRow } from '../../../../shared/channels/cleanup';
import type { AppErrorValue } from '../../../../shared/errors';
import { DataTable, type DataColumn } from '../../components/common';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { formatBytes } from '../../format';
import { useCleanup } from '../../stores/cleanup';
import { useActionsAvailable } from '../../stores/connection';

const imageColumns: DataColumn<ImportImageRow>[] = [
  { id: 'volid', header: 'Image', rowHeader: true, sortValue: (i) => i.volid, cell: (i) => <code>{i.volid}</code> },
  { id: 'node', header: 'Node', sortValue: (i) => i.node, cell: (i) => i.node },
  { id: 'size', header: 'Size', align: 'end', sortValue: (i) => i.sizeBytes, cell: (i) => formatBytes(i.sizeBytes) },
  { id: 'reason', header: 'Why', cell: (i) => i.reason },
];

export function TemplateLeftovers({
  clusterId,
  builds,
  images,
}: {
  clusterId: string;
  builds: TemplateBuildRow[];
  images: ImportImageRow[];
}) {
  const api = useCleanup((s) => s.api);
  const actions = useActionsAvailable();
  const [confirming, setConfirming] = useState<TemplateBuildRow>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorValue>();
  const [started, setStarted] = useState<Record<string, string>>({});

  const destroy = async (row: TemplateBuildRow) => {
    if (!api) return;
    setBusy(true);
    setError(undefined);
    const answer = await api.request['cleanup.deleteTemplateBuilds']({
      clusterId,
      builds: [{ node: row.node, vmid: row.vmid, buildId: row.buildId }],
    });
    setBusy(false);
    if (answer.ok) setStarted((s) => ({ ...s, [row.buildId]: answer.value.taskIds[0] ?? '' }));
    else setError(answer.error);
  };

  const buildColumns: DataColumn<TemplateBuildRow>[] = [
    { id: 'name', header: 'Name', rowHeader: true, sortValue: (b) => b.name, cell: (b) => b.name },
    { id: 'vmid', header: 'VMID', sortValue: (b) => b.vmid, cell: (b) => b.vmid },
    { id: 'node', header: 'Node', sortValue: (b) => b.node, cell: (b) => b.node },
    { id: 'reason', header: 'Why', cell: (b) => b.reason },
    {
      id: 'actions',
      header: 'Actions',
      cell: (b) =>
        started[b.buildId] !== undefined ? (
          <span role="status">Clean-up started: see Tasks.</span>
        ) : (
          <button
            type="button"
            className="danger"
            disabled={busy || !actions.enabled}
            title={actions.reason}
            aria-label={`Delete VM ${b.vmid} (${b.name})`}
            onClick={() => setConfirming(b)}
          >
            Delete
          </button>
        ),
    },
  ];

  return (
    <>
      <section className="cleanup-section" aria-label="Unfinished template builds">
        <h2>Unfinished template builds ({builds.length})</h2>
        <p className="muted">
          VMs a template build made and never converted to a template: the build crashed and was neither resumed nor cleaned up.
        </p>
        {error && <ErrorNotice error={error} title="The clean-up was not started" onDismiss={() => setError(undefined)} />}
        <DataTable label="Unfinished template builds" columns={buildColumns} rows={builds} rowKey={(b) => `${b.node}/${b.vmid}`} />
      </section>
      <section className="cleanup-section" aria-label="Leftover downloaded images">
        <h2>Leftover downloaded images ({images.length})</h2>
        <p className="muted">
          Cloud images in import content that a template build downloaded and left, or named like a catalogue image, that no VM uses. Delete
          them on the node with <code>pvesm free &lt;image&gt;</code> when you no longer need them.
        </p>
        <DataTable label="Leftover downloaded images" columns={imageColumns} rows={images} rowKey={(i) => `${i.node}/${i.volid}`} />
      </section>
      {confirming && (
        <ConfirmDialog
          title={`Delete VM ${confirming.vmid}?`}
          confirmLabel={`Delete VM ${confirming.vmid}`}
          danger
          busy={busy}
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            const row = confirming;
            setConfirming(undefined);
            void destroy(row);
          }}
        >
          <p>
            VM {confirming.vmid} ({confirming.name}) on {confirming.node} will be destroyed with its disks, only if, right before the
            destroy, its notes still carry the build id {confirming.buildId} and it is not a template.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
