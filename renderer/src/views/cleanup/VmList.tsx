/** VMs the scan found worth a look (half-built, missing their seed, foreign look-alikes), each with the reason. */
import type { VmRow } from '../../../../shared/channels/cleanup';

export function VmList({ label, vms, note }: { label: string; vms: VmRow[]; note: string }) {
  return (
    <section aria-label={label} className="cleanup-section">
      <h2>
        {label} ({vms.length})
      </h2>
      <p className="muted">{note}</p>
      {vms.length > 0 && (
        <table className="data-table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">VMID</th>
              <th scope="col">Node</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {vms.map((v) => (
              <tr key={`${v.node}/${v.vmid}`}>
                <td>{v.name}</td>
                <td>{v.vmid}</td>
                <td>{v.node}</td>
                <td>{v.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
