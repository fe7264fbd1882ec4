/**
 * The machine types of a cluster (cores, memory, optional disk), edited as
 * a small table and saved together. Checked with the shared profile schema
 * before it is sent.
 */
import { useEffect, useState } from 'react';
import type { ProfileFields, ProfileSummary } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common';
import { saveChange } from './profile-edit';

interface Row {
  name: string;
  cores: string;
  memoryMiB: string;
  diskGiB: string;
}

const rowsOf = (types: ProfileFields['machineTypes']): Row[] =>
  Object.entries(types).map(([name, t]) => ({
    name,
    cores: String(t.cores),
    memoryMiB: String(t.memoryMiB),
    diskGiB: t.diskGiB === undefined ? '' : String(t.diskGiB),
  }));

function typesOf(rows: Row[]): ProfileFields['machineTypes'] {
  return Object.fromEntries(
    rows.map((r) => [
      r.name.trim(),
      { cores: Number(r.cores), memoryMiB: Number(r.memoryMiB), ...(r.diskGiB.trim() ? { diskGiB: Number(r.diskGiB) } : {}) },
    ]),
  );
}

export function MachineTypesEditor({ profile, editable }: { profile: ProfileSummary; editable: boolean }) {
  const [rows, setRows] = useState(() => rowsOf(profile.machineTypes));
  const [error, setError] = useState<AppErrorValue>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setRows(rowsOf(profile.machineTypes)), [profile.machineTypes]);

  const edit = (i: number, change: Partial<Row>) => {
    setSaved(false);
    setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  };
  const save = async () => {
    const names = rows.map((r) => r.name.trim());
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    if (duplicate !== undefined) {
      setError({
        kind: 'invalid-input',
        message: `Two machine types are named "${duplicate}".`,
        hint: 'Give each machine type its own name.',
      });
      return;
    }
    setBusy(true);
    const answer = await saveChange(profile, (f) => ({ ...f, machineTypes: typesOf(rows) }));
    setBusy(false);
    setError(answer.ok ? undefined : answer.error);
    setSaved(answer.ok);
  };

  return (
    <form
      aria-label={`Machine types of ${profile.name}`}
      // The shared schema is the one judge of the values, not the browser's own checks.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <table className="data-table machine-types">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Cores</th>
            <th scope="col">Memory (MiB)</th>
            <th scope="col">Disk (GiB, optional)</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input
                  aria-label={`Name of machine type ${i + 1}`}
                  value={r.name}
                  disabled={!editable}
                  onChange={(e) => edit(i, { name: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Cores of ${r.name || `machine type ${i + 1}`}`}
                  type="number"
                  min={1}
                  value={r.cores}
                  disabled={!editable}
                  onChange={(e) => edit(i, { cores: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Memory of ${r.name || `machine type ${i + 1}`}`}
                  type="number"
                  min={16}
                  step={256}
                  value={r.memoryMiB}
                  disabled={!editable}
                  onChange={(e) => edit(i, { memoryMiB: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Disk of ${r.name || `machine type ${i + 1}`}`}
                  type="number"
                  min={1}
                  value={r.diskGiB}
                  disabled={!editable}
                  onChange={(e) => edit(i, { diskGiB: e.target.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove machine type ${r.name || i + 1}`}
                  disabled={!editable}
                  onClick={() => setRows(rows.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <ErrorNotice title="The machine types were not saved" error={error} />}
      <div className="form-actions">
        <button
          type="button"
          disabled={!editable}
          onClick={() => setRows([...rows, { name: '', cores: '1', memoryMiB: '1024', diskGiB: '' }])}
        >
          Add machine type
        </button>
        <button type="submit" className="primary" disabled={!editable || busy}>
          Save machine types
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
