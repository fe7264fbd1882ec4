/**
 * Webhook targets for alerts (ntfy, Gotify, generic JSON): the list with
 * Send test, Edit and Remove, and one form to add or edit a target. The
 * token field is write-only: main never sends a token back, only whether
 * one is kept; an empty field keeps it. Checked with the shared schema
 * before sending, so a refused value is named by its field. Where the OS
 * has no protected keyring, the form asks where to keep the token with the
 * connect wizard's choice and words (ChoicesStep's "Keep the token secret"):
 * until the app quits, or on disk without real protection; main refuses the
 * rest as it does for a cluster's secret. A kept token is only sent to the
 * server it was saved for (shared/domain/secret-origin.ts): while the URL
 * names another one, the Token field says it must be entered again, and
 * nothing is sent until it is (or the kept token is forgotten).
 */
import { useEffect, useState } from 'react';
import {
  SaveWebhookTargetInput,
  type WebhookFormat,
  type WebhookSecretStorage,
  type WebhookTarget,
} from '../../../../shared/channels/alerts';
import { movedSecretProblem } from '../../../../shared/domain/secret-origin';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice, Field } from '../../components/common';
import { useAlerts } from '../../stores/alerts';
import { useActionsAvailable } from '../../stores/connection';
import { useProfiles } from '../../stores/profiles';

/** The choices where no keyring protects secrets, in the connect wizard's words. */
type UnprotectedChoice = Exclude<WebhookSecretStorage, 'keyring'>;
const unprotectedChoices: Record<UnprotectedChoice, string> = {
  session: 'Until the app quits (ask again next time)',
  plaintext: 'On disk without real protection',
};

/** Where a target's token is, as its row says it. */
function tokenWords(target: WebhookTarget): string {
  if (target.secretNeeded) return 'token to enter again (it was kept until the app quit): alerts are not sent here until then';
  switch (target.secretStorage) {
    case 'keyring':
      return 'token sealed by the keyring';
    case 'session':
      return 'token kept until the app quits';
    case 'plaintext':
      return 'token on disk without real protection';
    default:
      return target.hasSecret ? 'token kept' : 'no token';
  }
}

interface Draft {
  id?: string;
  name: string;
  format: WebhookFormat;
  url: string;
  topic: string;
  secret: string;
  clearSecret: boolean;
  enabled: boolean;
  hasSecret: boolean;
  /** Asked only where no keyring protects secrets. */
  secretStorage: UnprotectedChoice;
  /** Where the edited target's token is now (to send a change of place only). */
  keptIn?: WebhookSecretStorage;
  /** The URL the kept token was saved with: another server needs the token again. */
  savedUrl?: string;
}

/** Why the kept token cannot go along to the URL as typed now (the shared rule's words), or undefined. */
function movedToken(draft: Draft): string | undefined {
  if (!draft.hasSecret || draft.clearSecret || draft.secret || draft.savedUrl === undefined) return undefined;
  return movedSecretProblem(draft.savedUrl, draft.url, 'token')?.message;
}

const empty: Draft = {
  name: '',
  format: 'ntfy',
  url: '',
  topic: '',
  secret: '',
  clearSecret: false,
  enabled: true,
  hasSecret: false,
  secretStorage: 'session',
};

const formatWords: Record<WebhookFormat, { label: string; url: string; secret: string }> = {
  ntfy: { label: 'ntfy', url: 'Server, such as https://ntfy.sh', secret: 'Access token (tk_…), for a protected topic' },
  gotify: { label: 'Gotify', url: 'Server, such as http://192.168.1.20:8080', secret: "The application's token" },
  generic: { label: 'Generic JSON POST', url: 'The URL posted to', secret: 'Bearer token, if the receiver wants one' },
};

function TargetRow({ target, onEdit }: { target: WebhookTarget; onEdit: () => void }) {
  const testTarget = useAlerts((s) => s.testTarget);
  const removeTarget = useAlerts((s) => s.removeTarget);
  const actions = useActionsAvailable();
  const [outcome, setOutcome] = useState<string>();
  const [error, setError] = useState<AppErrorValue>();
  const [busy, setBusy] = useState(false);
  return (
    <li className="webhook-target">
      <p>
        <strong>{target.name}</strong> · {formatWords[target.format].label} · {target.url}
        {target.topic ? `/${target.topic}` : ''} · {tokenWords(target)}
        {target.enabled ? '' : ' · off'}
      </p>
      <div className="form-actions">
        <button
          type="button"
          disabled={busy || !actions.enabled}
          title={actions.reason}
          aria-label={`Send test to ${target.name}`}
          onClick={async () => {
            setBusy(true);
            setOutcome(undefined);
            const answer = await testTarget(target.id);
            setBusy(false);
            setError(answer.ok ? undefined : answer.error);
            setOutcome(answer.ok ? answer.value.message : undefined);
          }}
        >
          {busy ? 'Sending…' : 'Send test'}
        </button>
        <button type="button" aria-label={`Edit ${target.name}`} onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className="danger"
          disabled={!actions.enabled}
          aria-label={`Remove ${target.name}`}
          onClick={async () => setError(await removeTarget(target.id))}
        >
          Remove
        </button>
        <span role="status">{outcome ?? ''}</span>
      </div>
      {error && <ErrorNotice title={`The test to ${target.name} failed`} error={error} />}
    </li>
  );
}

export function WebhooksSection() {
  const targets = useAlerts((s) => s.targets);
  const secretStorage = useAlerts((s) => s.secretStorage);
  const saveTarget = useAlerts((s) => s.saveTarget);
  // The same source the connect wizard asks: only a real OS keyring is protected.
  const vault = useProfiles((s) => s.list?.vault);
  const askWhere = vault !== undefined && !vault.protected;
  const actions = useActionsAvailable();
  const [draft, setDraft] = useState<Draft>(empty);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<AppErrorValue>();
  const [saved, setSaved] = useState(false);
  // Read when shown (a token kept elsewhere may have changed); a window not yet attached reads them at attach.
  useEffect(() => {
    if (useAlerts.getState().api) void useAlerts.getState().loadTargets().then(setError);
  }, []);
  const edit = (change: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...change }));
  };
  const words = formatWords[draft.format];
  const moved = movedToken(draft);

  const submit = async () => {
    if (moved) return; // the Token field says why, until a token is typed or the kept one forgotten
    // A new token goes where the user chose; a kept one moves only when the choice changed.
    const movedPlace = draft.hasSecret && !draft.clearSecret && draft.keptIn !== draft.secretStorage;
    const where = askWhere && (draft.secret || movedPlace) ? { secretStorage: draft.secretStorage } : {};
    const parsed = SaveWebhookTargetInput.safeParse({
      ...where,
      ...(draft.id ? { id: draft.id } : {}),
      name: draft.name,
      format: draft.format,
      url: draft.url,
      ...(draft.format === 'ntfy' ? { topic: draft.topic } : {}),
      enabled: draft.enabled,
      ...(draft.secret ? { secret: draft.secret } : {}),
      ...(draft.clearSecret ? { clearSecret: true } : {}),
    });
    if (!parsed.success) {
      setProblems(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'name'), i.message])));
      return;
    }
    setProblems({});
    const answer = await saveTarget(parsed.data);
    setError(answer.ok ? undefined : answer.error);
    if (answer.ok) {
      setDraft(empty);
      setSaved(true);
    }
  };

  return (
    <section aria-labelledby="settings-webhooks">
      <h2 id="settings-webhooks">Alert webhooks</h2>
      <p className="muted">
        Alerts are also sent here when raised and when resolved. {secretStorage ?? ''} A token is never shown again once saved.
      </p>
      {targets.length > 0 && (
        <ul className="webhook-targets" aria-label="Webhook targets">
          {targets.map((t) => (
            <TargetRow
              key={t.id}
              target={t}
              onEdit={() =>
                setDraft({
                  id: t.id,
                  name: t.name,
                  format: t.format,
                  url: t.url,
                  topic: t.topic ?? '',
                  secret: '',
                  clearSecret: false,
                  enabled: t.enabled,
                  hasSecret: t.hasSecret,
                  secretStorage: t.secretStorage === 'plaintext' ? 'plaintext' : 'session',
                  ...(t.secretStorage ? { keptIn: t.secretStorage } : {}),
                  savedUrl: t.url,
                })
              }
            />
          ))}
        </ul>
      )}
      <form
        aria-label={draft.id ? `Edit webhook ${draft.name}` : 'Add a webhook'}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label="Name" problem={problems.name}>
          <input type="text" value={draft.name} onChange={(e) => edit({ name: e.target.value })} />
        </Field>
        <Field label="Format" problem={problems.format}>
          <select value={draft.format} onChange={(e) => edit({ format: e.target.value as WebhookFormat })}>
            {(Object.keys(formatWords) as WebhookFormat[]).map((f) => (
              <option key={f} value={f}>
                {formatWords[f].label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="URL" problem={problems.url} help={words.url}>
          <input type="url" value={draft.url} onChange={(e) => edit({ url: e.target.value })} />
        </Field>
        {draft.format === 'ntfy' && (
          <Field label="Topic" problem={problems.topic} help="The topic your phone subscribes to.">
            <input type="text" value={draft.topic} onChange={(e) => edit({ topic: e.target.value })} />
          </Field>
        )}
        <Field
          label="Token"
          problem={moved ?? problems.secret}
          // A kept token stays with its server: once the URL names another, leaving the field empty keeps nothing.
          help={draft.hasSecret && !moved ? `${words.secret}. A token is kept: leave empty to keep it.` : `${words.secret}.`}
        >
          <input type="password" autoComplete="off" value={draft.secret} onChange={(e) => edit({ secret: e.target.value })} />
        </Field>
        {askWhere && (
          <Field label="Keep the token" problem={problems.secretStorage} help={vault.detail}>
            <select value={draft.secretStorage} onChange={(e) => edit({ secretStorage: e.target.value as UnprotectedChoice })}>
              {(Object.keys(unprotectedChoices) as UnprotectedChoice[]).map((c) => (
                <option key={c} value={c}>
                  {unprotectedChoices[c]}
                </option>
              ))}
            </select>
          </Field>
        )}
        {draft.hasSecret && (
          <label className="check-switch">
            <input type="checkbox" checked={draft.clearSecret} onChange={(e) => edit({ clearSecret: e.target.checked })} /> Forget the kept
            token
          </label>
        )}
        <label className="check-switch">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => edit({ enabled: e.target.checked })} /> Send alerts to this target
        </label>
        {error && <ErrorNotice title="The webhook was not saved" error={error} />}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
            {draft.id ? 'Save webhook' : 'Add webhook'}
          </button>
          {draft.id && (
            <button type="button" onClick={() => setDraft(empty)}>
              Cancel
            </button>
          )}
          <span role="status">{saved ? 'Saved.' : ''}</span>
        </div>
      </form>
    </section>
  );
}
