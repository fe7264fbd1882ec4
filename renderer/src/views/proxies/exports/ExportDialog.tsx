/**
 * Issue 24 §3: Export… on the Proxies selection. The user picks the scope
 * (the selection, or every proxy with a tag), the format, the PAC and
 * extension routing (host patterns, fallback), the proxychains chain, and
 * whether credentials go in (one warning, CredentialsConsent); main writes
 * the text (proxies.export) and the dialog previews it, copies it, and saves
 * it (main's save dialog, or a download in browser mode). Host patterns are
 * checked with the contract's own rule as they are typed, before any request.
 */
import { useMemo, useState } from 'react';
import {
  ExportFormat,
  HostPattern,
  exportFormatLabel,
  type ExportInput,
  type RoutingOptions,
} from '../../../../../shared/channels/exports';
import type { AppErrorValue } from '../../../../../shared/errors';
import { CopyButton } from '../../../components/common/CopyButton';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { Field } from '../../../components/common/Field';
import { useDebouncedAnswer } from '../../../components/common/debounced-answer';
import { useConnection } from '../../../stores/connection';
import { useInventory } from '../../../stores/inventory';
import type { ProxyRow } from '../rows';
import { CredentialsConsent, useCredentialsAcknowledged } from './CredentialsConsent';
import { download, requestExport, requestExportSave, useExportDialog } from './export-store';
import './exports.css';

const routed = new Set<ExportFormat>(['pac', 'foxyproxy', 'switchyomega']);

/** The host patterns as typed, one a line or comma-separated, with the first problem the contract's rule finds. */
function readPatterns(text: string): { hosts: string[]; problem?: string } {
  const hosts = text
    .split(/[\n,]+/)
    .map((h) => h.trim())
    .filter(Boolean);
  for (const h of hosts) {
    const parsed = HostPattern.safeParse(h);
    if (!parsed.success) return { hosts, problem: `“${h}”: ${parsed.error.issues[0]?.message ?? 'not a host pattern'}` };
  }
  return { hosts };
}

export function ExportDialog({ rows }: { rows: ProxyRow[] }) {
  const close = useExportDialog((s) => s.close);
  const clusters = useInventory((s) => s.clusters);
  const browserMode = useConnection((s) => s.info?.mode === 'browser');
  const acknowledged = useCredentialsAcknowledged();
  const tags = useMemo(
    () => [...new Set(clusters.flatMap((c) => c.vms.filter((v) => v.owner === 'marked').flatMap((v) => v.tags)))].sort(),
    [clusters],
  );
  const [scopeKind, setScopeKind] = useState<'selection' | 'tag'>(rows.length > 0 ? 'selection' : 'tag');
  const [tag, setTag] = useState(tags[0] ?? '');
  const [format, setFormat] = useState<ExportFormat>('pac');
  const [patterns, setPatterns] = useState('');
  const [fallback, setFallback] = useState<RoutingOptions['fallback']>('direct');
  const [chain, setChain] = useState<'round_robin' | 'strict'>('round_robin');
  const [includeCredentials, setIncludeCredentials] = useState(false);
  const [asking, setAsking] = useState(false);
  const [saved, setSaved] = useState<{ text?: string; error?: AppErrorValue }>();

  const { hosts, problem } = readPatterns(patterns);
  const input: ExportInput | undefined =
    problem || (scopeKind === 'tag' && !tag)
      ? undefined
      : {
          scope:
            scopeKind === 'selection'
              ? { kind: 'selection', proxies: rows.map((r) => ({ clusterId: r.clusterId, vmid: r.vmid })) }
              : { kind: 'tag', tag },
          format,
          options: { includeCredentials: includeCredentials && acknowledged, routing: { hosts, fallback }, chain },
        };
  // The preview follows every choice, a moment after the last keystroke.
  const answer = useDebouncedAnswer(input, requestExport);

  const result = input ? answer?.value : undefined;
  const save = async () => {
    if (!input || !result) return;
    if (browserMode) {
      download(result.fileName, result.mediaType, result.text);
      setSaved({ text: `Downloaded as ${result.fileName}.` });
      return;
    }
    const a = await requestExportSave(input);
    setSaved(a.ok ? { text: a.value.saved ? `Saved to ${a.value.path}.` : 'Not saved.' } : { error: a.error });
  };

  return (
    <Dialog
      title="Export proxies"
      size="wide"
      onClose={close}
      footer={
        <>
          {result && <CopyButton text={result.text} label="Copy the export" />}
          <button type="button" className="primary" disabled={!result} onClick={() => void save()}>
            {browserMode ? 'Download' : 'Save…'}
          </button>
          <button type="button" onClick={close}>
            Close
          </button>
        </>
      }
    >
      <div className="export-form">
        <fieldset>
          <legend>Which proxies</legend>
          <label>
            <input
              type="radio"
              name="export-scope"
              checked={scopeKind === 'selection'}
              disabled={rows.length === 0}
              onChange={() => setScopeKind('selection')}
            />{' '}
            The selection ({rows.length})
          </label>
          <label>
            <input
              type="radio"
              name="export-scope"
              checked={scopeKind === 'tag'}
              disabled={tags.length === 0}
              onChange={() => setScopeKind('tag')}
            />{' '}
            Every proxy with a tag
          </label>
          {scopeKind === 'tag' && (
            <Field label="Tag">
              <select value={tag} onChange={(e) => setTag(e.target.value)}>
                {tags.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </fieldset>
        <Field label="Format">
          <select data-autofocus value={format} onChange={(e) => setFormat(ExportFormat.parse(e.target.value))}>
            {ExportFormat.options.map((f) => (
              <option key={f} value={f}>
                {exportFormatLabel[f]}
              </option>
            ))}
          </select>
        </Field>
        {routed.has(format) && (
          <>
            <Field label="Hosts through the proxies" problem={problem} help="One pattern a line, like *.example.com; none: every host.">
              <textarea rows={3} value={patterns} onChange={(e) => setPatterns(e.target.value)} spellCheck={false} />
            </Field>
            <Field label="When every proxy fails">
              <select value={fallback} onChange={(e) => setFallback(e.target.value === 'none' ? 'none' : 'direct')}>
                <option value="direct">Connect directly</option>
                <option value="none">Fail (nothing leaves outside a proxy)</option>
              </select>
            </Field>
          </>
        )}
        {format === 'proxychains' && (
          <Field label="Chain">
            <select value={chain} onChange={(e) => setChain(e.target.value === 'strict' ? 'strict' : 'round_robin')}>
              <option value="round_robin">Round robin: each connection through the next proxy</option>
              <option value="strict">Strict: every connection through all, in order</option>
            </select>
          </Field>
        )}
        <label className="export-credentials">
          <input
            type="checkbox"
            checked={includeCredentials}
            onChange={(e) => {
              setIncludeCredentials(e.target.checked);
              setAsking(e.target.checked && !acknowledged);
            }}
          />{' '}
          Include credentials
        </label>
        {asking && (
          <CredentialsConsent
            onAccept={() => setAsking(false)}
            onDecline={() => {
              setAsking(false);
              setIncludeCredentials(false);
            }}
          />
        )}
      </div>
      {scopeKind === 'tag' && tags.length === 0 && (
        <p role="status">No proxy has a tag yet: close this, select the proxies to export, and open Export… again.</p>
      )}
      {answer?.error && input && <ErrorNotice error={answer.error} title="The export could not be written" />}
      {result && (
        <section aria-label="Export preview" className="export-preview">
          <h3>
            {result.fileName}: {result.included.length} {result.included.length === 1 ? 'proxy' : 'proxies'}
            {result.withCredentials ? ', with credentials' : ''}
          </h3>
          {result.leftOut.length > 0 && (
            <p className="muted">Left out: {result.leftOut.map((l) => `${l.name} (${l.reason})`).join('; ')}.</p>
          )}
          {result.notes.map((n) => (
            <p key={n} className="muted">
              {n}
            </p>
          ))}
          <pre tabIndex={0} aria-label="Preview" className="export-text">
            {result.text}
          </pre>
        </section>
      )}
      {saved?.text && <p role="status">{saved.text}</p>}
      {saved?.error && <ErrorNotice error={saved.error} title="The export could not be saved" />}
    </Dialog>
  );
}

/** Rendered once by the Proxies view: the dialog while it is open. */
export function ExportDialogHost() {
  const rows = useExportDialog((s) => s.rows);
  return rows ? <ExportDialog rows={rows} /> : null;
}
