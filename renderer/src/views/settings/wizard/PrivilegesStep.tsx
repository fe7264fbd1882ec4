/**
 * Page 3: what the token may not do yet, per path, and the pveum commands
 * that grant it (to run as root on a node), with a copy button. Check
 * again after running them, or go back and give another token.
 */
import type { PrivilegesSection } from '../../../../../shared/channels/doctor';
import { CopyButton } from '../../../components/common';

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
      <table className="data-table" aria-label="Privilege checks">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Role</th>
            <th scope="col">Missing</th>
          </tr>
        </thead>
        <tbody>
          {section.data.checks.map((c) => (
            <tr key={`${c.path}:${c.role}`} className={c.missing.length ? 'row-bad' : undefined}>
              <th scope="row">{c.path}</th>
              <td>{c.role}</td>
              <td>{c.missing.length ? c.missing.join(', ') : 'nothing'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {commands && (
        <>
          <h3>Run these as root on a node</h3>
          <pre className="commands" aria-label="Commands to grant the privileges">
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
