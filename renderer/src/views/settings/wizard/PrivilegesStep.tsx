/**
 * Page 3: what the token may not do yet, per path, and the pveum commands
 * that grant it (to run as root on a node), with a copy button. Check
 * again after running them, or go back and give another token.
 */
import type { PrivilegesSection } from '../../../../../shared/channels/doctor';
import { CopyButton, DataTable, type DataColumn } from '../../../components/common';

type Check = PrivilegesSection['data']['checks'][number];

const columns: DataColumn<Check>[] = [
  { id: 'path', header: 'Path', rowHeader: true, sortValue: (c) => c.path, cell: (c) => c.path },
  { id: 'role', header: 'Role', sortValue: (c) => c.role, cell: (c) => c.role },
  {
    id: 'missing',
    header: 'Missing',
    sortValue: (c) => c.missing.length,
    cell: (c) => (c.missing.length ? c.missing.join(', ') : 'nothing'),
  },
];

export function PrivilegesStep({
  section,
  busy,
  onRecheck,
  onChangeToken,
}: {
  section: PrivilegesSection;
  busy: boolean;
  onRecheck: () => void;
  onChangeToken: () => void;
}) {
  const commands = section.data.commands.join('\n');
  return (
    <div className="wizard-page">
      <div role="alert" className="error-notice error-permanent">
        <span className="kind-badge">Privileges missing</span>
        <p className="error-message">{section.message}</p>
        <p className="error-hint">What to do: {section.hint}</p>
      </div>
      <DataTable
        label="Privilege checks"
        columns={columns}
        rows={section.data.checks}
        rowKey={(c) => `${c.path}:${c.role}`}
        rowClassName={(c) => (c.missing.length ? 'row-bad' : undefined)}
      />
      {commands && (
        <>
          <h3>Run these as root on a node</h3>
          {/* Focusable, so the keyboard can scroll a long line into view (WCAG 2.1.1). */}
          <pre className="commands" role="region" tabIndex={0} aria-label="Commands to grant the privileges">
            {commands}
          </pre>
          <CopyButton text={commands} label="Copy the commands" />
        </>
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy} onClick={onRecheck}>
          {busy ? 'Checking…' : 'Check again'}
        </button>
        <button type="button" onClick={onChangeToken}>
          Use another token
        </button>
      </div>
    </div>
  );
}
