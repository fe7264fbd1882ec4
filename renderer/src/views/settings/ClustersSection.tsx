/** The clusters the app knows, with the way to connect another and to remove one. */
import { useState } from 'react';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { ConfirmDialog, ErrorNotice, StateBadge } from '../../components/common';
import { clustersOf, useProfiles } from '../../stores/profiles';
import { SecretDialog } from './SecretDialog';

export function ClustersSection({ onConnect }: { onConnect: () => void }) {
  const list = useProfiles((s) => s.list);
  const [removing, setRemoving] = useState<ProfileSummary>();
  const [needsSecret, setNeedsSecret] = useState<ProfileSummary>();
  const [error, setError] = useState<AppErrorValue>();
  const clusters = clustersOf(list);

  const remove = async (p: ProfileSummary) => {
    const answer = await useProfiles.getState().remove(p.id);
    setRemoving(undefined);
    setError(answer.ok ? undefined : answer.error);
  };

  return (
    <section aria-labelledby="settings-clusters">
      <h2 id="settings-clusters">Clusters</h2>
      {list?.storeProblem && (
        <ErrorNotice
          title="The saved clusters could not be read"
          error={{
            kind: 'permanent',
            message: list.storeProblem.message,
            hint: list.storeProblem.backupPath
              ? `The unreadable file was kept at ${list.storeProblem.backupPath}.`
              : 'Connect the clusters again.',
          }}
        />
      )}
      {error && <ErrorNotice title="The cluster was not removed" error={error} onDismiss={() => setError(undefined)} />}
      <ul className="cluster-list" aria-label="Connected clusters">
        {clusters.map((p) => (
          <li key={p.id}>
            <div>
              <strong>{p.name}</strong> {p.demo && <StateBadge state="demo" label="Simulated" tone="info" />}
              {!p.secretAvailable && <StateBadge state="warn" label="Secret needed" />}
              <div className="muted">
                {p.url} · {p.token.secretStorage === 'file' ? `token file ${p.token.tokenFile}` : p.token.tokenId} · TLS {p.tls.mode}
              </div>
            </div>
            {!p.secretAvailable && p.token.secretStorage !== 'file' && (
              <button type="button" aria-label={`Enter the token secret for ${p.name}`} onClick={() => setNeedsSecret(p)}>
                Enter secret
              </button>
            )}
            <button
              type="button"
              aria-label={`Remove ${p.name}`}
              disabled={p.demo}
              title={p.demo ? 'The demo cluster is built in; it goes away once a real cluster is connected.' : undefined}
              onClick={() => setRemoving(p)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="primary" onClick={onConnect}>
        Connect a cluster
      </button>
      {needsSecret && <SecretDialog profile={needsSecret} onClose={() => setNeedsSecret(undefined)} />}
      {removing && (
        <ConfirmDialog
          title="Remove cluster"
          confirmLabel={`Remove ${removing.name}`}
          danger
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(undefined)}
        >
          <p>
            {removing.name} ({removing.url}) and its stored token secret will be forgotten. Its proxies keep running on Proxmox.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
