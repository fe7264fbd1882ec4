/**
 * The token step's result (issue 14): which Proxmox VE release answered, and
 * the doctor's plain notes on what that release changes for Egress Desk
 * (main/services/doctor/version-notes.ts). Main writes every word; this only
 * shows them, with the doctor's hint when the release is not one it tests.
 */
import type { TokenSection } from '../../../../../shared/channels/doctor';

export function VersionNotes({ token }: { token: TokenSection }) {
  const { version, release, versionNotes } = token.data;
  if (token.status === 'fail' || token.status === 'skipped' || !version) return null;
  const notes = versionNotes ?? [];
  return (
    <section className="version-notes" aria-label="Proxmox VE version">
      <p>
        Proxmox VE {version}
        {release && release !== version ? ` (release ${release})` : ''}
        {notes.length === 0 ? ': nothing to note for this release.' : ':'}
      </p>
      {notes.length > 0 && (
        <ul>
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {token.status === 'warn' && token.hint && <p className="field-help">{token.hint}</p>}
    </section>
  );
}
