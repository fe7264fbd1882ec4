/**
 * The build's preflight in words (issue 14): what stops the build and the
 * exact commands that fix it (copyable), the privilege gaps, what is only
 * worth knowing, and on a release too old for the API the whole shell
 * recipe as one block with Verify, which runs the doctor on the result.
 */
import type { BuildPreflightView } from '../../../../../shared/channels/templates';
import { CopyButton, ErrorNotice } from '../../../components/common';
import { formatBytes } from '../../../format';
import { useTemplateBuilder } from '../../../stores/template-builder';
import { VerdictBadge, VerdictReasons } from '../verdict';

function Commands({ text, label }: { text: string; label: string }) {
  return (
    <div className="builder-commands">
      {/* Focusable, so the keyboard can scroll a long line into view (WCAG 2.1.1). */}
      <pre role="region" tabIndex={0} aria-label={label}>
        {text}
      </pre>
      <CopyButton text={text} label={`Copy ${label}`} />
    </div>
  );
}

export function PreflightReport({ pf, clusterId, hasChecksum }: { pf: BuildPreflightView; clusterId: string; hasChecksum?: boolean }) {
  const verify = useTemplateBuilder((s) => s.verify);
  const runVerify = useTemplateBuilder((s) => s.runVerify);
  const blockers = pf.blockers.filter((b) => b.code !== 'privileges');
  // The preflight does not follow the checksum field: its warning about a missing one goes once one is pasted.
  const warnings = pf.warnings.filter((w) => !(hasChecksum && w.code === 'no-checksum'));
  return (
    <section className="builder-preflight" aria-label="Preflight">
      {pf.path === 'shell' && (
        <div className="builder-shell">
          <p role="alert">
            <strong>
              Proxmox VE {pf.release ?? '(unknown version)'} on {pf.node} cannot build a template over the API.
            </strong>{' '}
            {pf.reason}
          </p>
          <p>Run these commands as root on {pf.node} (its shell, or SSH), then press Verify:</p>
          {pf.shell && <Commands text={pf.shell} label="shell commands" />}
          <button type="button" disabled={verify.running} onClick={() => void runVerify(clusterId, pf.vmid, pf.catalogueKey)}>
            {verify.running ? 'Verifying…' : `Verify VM ${pf.vmid}`}
          </button>
          {verify.error && <ErrorNotice title="Verify could not run" error={verify.error} />}
          {verify.answer && (
            <div role="status" className="builder-verdict">
              <VerdictBadge verdict={verify.answer.verdict} /> <VerdictReasons verdict={verify.answer.verdict} />
              {verify.answer.catalogue === 'added' && <p>Added to the catalogue as “{pf.catalogueKey}”.</p>}
            </div>
          )}
        </div>
      )}
      {blockers.length > 0 && (
        <div className="builder-blockers">
          <h3>What stops the build</h3>
          <ul>
            {blockers.map((b, i) => (
              <li key={`${b.code}-${i}`}>
                {b.message}
                {b.fix && <Commands text={b.fix} label={`commands for ${b.code}`} />}
              </li>
            ))}
          </ul>
        </div>
      )}
      {pf.privileges.length > 0 && (
        <div className="builder-privileges">
          <h3>Privileges the token lacks</h3>
          <ul>
            {pf.privileges.map((g) => (
              <li key={g.path}>
                {g.missing.join(', ')} on <code>{g.path}</code>: needed to {g.why}.
              </li>
            ))}
          </ul>
          <p>As root on a node, grant them:</p>
          <Commands text={pf.grantCommands.join('\n')} label="pveum commands" />
        </div>
      )}
      {warnings.length > 0 && (
        <ul className="builder-warnings" aria-label="Worth knowing">
          {warnings.map((w, i) => (
            <li key={`${w.code}-${i}`} className="muted">
              {w.message}
            </li>
          ))}
        </ul>
      )}
      {pf.ok && (
        <p role="status" className="test-ok">
          Ready: the node downloads {pf.image.label}
          {pf.image.approxBytes !== undefined ? ` (about ${formatBytes(pf.image.approxBytes)})` : ''} to {pf.importStorage}
          {pf.existingImage ? ' (already there: it is checked, not downloaded again)' : ''}, then makes template {pf.vmid} “{pf.name}” on{' '}
          {pf.targetStorage}, bridge {pf.bridge}
          {pf.vlanTag !== undefined ? `, VLAN ${pf.vlanTag}` : ''}.
        </p>
      )}
    </section>
  );
}
