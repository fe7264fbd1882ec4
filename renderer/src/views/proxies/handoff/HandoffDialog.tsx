/**
 * Issue 26: Hand to Kubernetes… on the Proxies selection (one cluster). Main
 * builds the bundle (handoff.preview): the refusals in words, or the files by
 * name with the ones holding a secret marked, and the README. Save writes a
 * new folder (handoff.save); the API token goes in as `proxmox-token` only
 * when its box is ticked and its own warning accepted (TokenConsent.tsx).
 * Release, after the user ticks that the bundle is
 * saved, empties each proxy's mark's uid (one task each, handoff.release);
 * Undo takes back the selected proxies that were handed off (handoff.undo).
 */
import { useId, useState } from 'react';
import type { HandoffInput } from '../../../../../shared/channels/handoff';
import type { AppErrorValue } from '../../../../../shared/errors';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { Field } from '../../../components/common/Field';
import { useDebouncedAnswer } from '../../../components/common/debounced-answer';
import type { ProxyRow } from '../rows';
import { CredentialsConsent, useCredentialsAcknowledged } from '../exports/CredentialsConsent';
import { TokenConsent } from './TokenConsent';
import { providerSlug, requestHandoffPreview, requestHandoffSave, requestRelease, requestUndo, useHandoffDialog } from './handoff-store';
import './handoff.css';

const PROVIDER_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function HandoffDialog({ rows }: { rows: ProxyRow[] }) {
  const close = useHandoffDialog((s) => s.close);
  const acknowledged = useCredentialsAcknowledged();
  const clusterIds = [...new Set(rows.map((r) => r.clusterId))];
  const clusterId = clusterIds[0] ?? '';
  const [provider, setProvider] = useState(providerSlug(rows[0]?.clusterName ?? ''));
  const [includeCredentials, setIncludeCredentials] = useState(false);
  const [asking, setAsking] = useState(false);
  const [includeToken, setIncludeToken] = useState(false);
  const [askingToken, setAskingToken] = useState(false);
  const tokenHelp = useId();
  const [status, setStatus] = useState<{ text?: string; error?: AppErrorValue }>();
  const [confirmed, setConfirmed] = useState(false);
  const handed = rows.filter((r) => r.handedOff);
  const toHand = rows.filter((r) => !r.handedOff);
  const providerProblem = PROVIDER_NAME.test(provider) ? undefined : 'Lowercase letters, digits and dashes, like proxmox-home.';
  const input: HandoffInput | undefined =
    clusterIds.length === 1 && toHand.length > 0 && !providerProblem
      ? { clusterId, vmids: toHand.map((r) => r.vmid), providerName: provider, includeCredentials: includeCredentials && acknowledged, includeToken }
      : undefined;
  const preview = useDebouncedAnswer(input, requestHandoffPreview);

  const ready = input && preview?.value && preview.value.refusals.length === 0 ? preview.value : undefined;
  const targets = (list: ProxyRow[]) => ({ clusterId, targets: list.map((r) => ({ vmid: r.vmid, name: r.name ?? '' })) });
  const save = async () => {
    if (!input) return;
    const a = await requestHandoffSave(input);
    setStatus(a.ok ? { text: a.value.saved ? `Saved the bundle in ${a.value.path}.` : 'Not saved.' } : { error: a.error });
  };
  const release = async () => {
    const a = await requestRelease(targets(toHand));
    setStatus(a.ok ? { text: `Releasing ${toHand.length} ${toHand.length === 1 ? 'proxy' : 'proxies'}: see Tasks.` } : { error: a.error });
  };
  const undo = async () => {
    const a = await requestUndo(targets(handed));
    setStatus(
      a.ok ? { text: `Taking back ${handed.length} ${handed.length === 1 ? 'proxy' : 'proxies'}: see Tasks.` } : { error: a.error },
    );
  };

  return (
    <Dialog
      title="Hand to Kubernetes"
      size="wide"
      onClose={close}
      footer={
        <>
          <button type="button" disabled={!ready} onClick={() => void save()}>
            Save bundle…
          </button>
          <button type="button" className="primary" disabled={!ready || !confirmed} onClick={() => void release()}>
            Release {toHand.length > 0 ? `(${toHand.length})` : ''}
          </button>
          {handed.length > 0 && (
            <button type="button" onClick={() => void undo()}>
              Undo release ({handed.length})
            </button>
          )}
          <button type="button" onClick={close}>
            Close
          </button>
        </>
      }
    >
      {clusterIds.length > 1 && <p role="alert">Select proxies of one cluster: a bundle is for one providers-config entry.</p>}
      <p className="muted">
        The Kubernetes operator adopts a VM named like its Proxy whose mark has no UID. Save the bundle, release the proxies here, then
        apply the bundle in the cluster (its README says how). Nothing is recreated.
      </p>
      {handed.length > 0 && (
        <p className="muted">
          Undo is refused once the operator has adopted a stopped proxy (it uploads the seed again). A running proxy it adopts shows no
          change on Proxmox: undo only if its Proxy was not applied, or the operator’s next reconcile fails on the UID written back.
        </p>
      )}
      <div className="handoff-form">
        <Field label="Provider name" problem={providerProblem} help="The providers-config entry every Proxy names.">
          <input data-autofocus value={provider} onChange={(e) => setProvider(e.target.value)} spellCheck={false} />
        </Field>
        <label>
          <input
            type="checkbox"
            checked={includeCredentials}
            onChange={(e) => {
              setIncludeCredentials(e.target.checked);
              setAsking(e.target.checked && !acknowledged);
            }}
          />{' '}
          Include credentials (in the Proxies’ cloud-init: the manifests become secrets)
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
        <label>
          <input
            type="checkbox"
            checked={includeToken || askingToken}
            aria-describedby={tokenHelp}
            onChange={(e) => {
              setAskingToken(e.target.checked);
              if (!e.target.checked) setIncludeToken(false);
            }}
          />{' '}
          Include the API token as a file (0600)
        </label>
        <p id={tokenHelp} className="muted handoff-option-help">
          {includeToken
            ? 'The bundle holds proxmox-token, the token itself: create the Secret from it, then delete it.'
            : 'Left out, the bundle holds no token: its README says where to write the token’s one line for the Secret.'}
        </p>
        {askingToken && (
          <TokenConsent
            clusterName={rows[0]?.clusterName ?? 'this cluster'}
            onAccept={() => {
              setAskingToken(false);
              setIncludeToken(true);
            }}
            onDecline={() => {
              setAskingToken(false);
              setIncludeToken(false);
            }}
          />
        )}
      </div>
      {preview?.error && input && <ErrorNotice error={preview.error} title="The bundle could not be built" />}
      {input && preview?.value && preview.value.refusals.length > 0 && (
        <section role="alert" aria-label="What the operator cannot take" className="handoff-refusals">
          <h3>The operator cannot take this selection</h3>
          <ul>
            {preview.value.refusals.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </section>
      )}
      {ready && (
        <section aria-label="Bundle" className="handoff-files">
          <h3>The bundle: {ready.files.length} files, each readable by you only</h3>
          <ul>
            {ready.files.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <span className="muted">{f.bytes} bytes</span>
                {f.secret && <span className="badge warn"> holds a secret</span>}
              </li>
            ))}
          </ul>
          <label>
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> I saved the bundle; release these
            proxies for the operator to adopt
          </label>
          {ready.readme && (
            <details>
              <summary>README.md</summary>
              <pre tabIndex={0} className="handoff-readme">
                {ready.readme}
              </pre>
            </details>
          )}
        </section>
      )}
      {handed.length > 0 && (
        <p className="muted">
          Handed to the operator: {handed.map((r) => r.name).join(', ')}. Undo writes the app’s UID back while the mark’s uid is empty; do
          it only when no Proxy names them (kubectl get px).
        </p>
      )}
      {status?.text && <p role="status">{status.text}</p>}
      {status?.error && <ErrorNotice error={status.error} title="That did not work" />}
    </Dialog>
  );
}

/** Rendered once by the Proxies view: the dialog while it is open. */
export function HandoffDialogHost() {
  const rows = useHandoffDialog((s) => s.rows);
  return rows ? <HandoffDialog rows={rows} /> : null;
}
