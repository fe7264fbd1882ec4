/**
 * Gives a saved cluster its token secret again: after a restart when the
 * secret was kept for the session only, or after an import (exports never
 * carry secrets). The secret goes to main with the profile unchanged; it is
 * never shown back.
 */
import { useState } from 'react';
import { TokenSecret, type ProfileSummary } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { Dialog, ErrorNotice, Field } from '../../components/common';
import { useProfiles } from '../../stores/profiles';

export function SecretDialog({ profile, onClose }: { profile: ProfileSummary; onClose: () => void }) {
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorValue>();
  const [problem, setProblem] = useState<string>();

  const submit = async () => {
    // The same check main makes: a secret too short to be real is said here, before anything is sent.
    const checked = TokenSecret.safeParse(secret);
    setProblem(checked.success ? undefined : checked.error.issues[0]?.message);
    if (!checked.success) return;
    setBusy(true);
    const { id, demo: _demo, secretAvailable: _held, createdAt: _c, updatedAt: _u, ...fields } = profile;
    const answer = await useProfiles.getState().save({ id, profile: fields, secret });
    setBusy(false);
    if (answer.ok) onClose();
    else setError(answer.error);
  };

  return (
    <Dialog
      title={`Token secret for ${profile.name}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="secret-form" className="primary" disabled={busy || secret.length === 0}>
            Save secret
          </button>
        </>
      }
    >
      <form
        id="secret-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>
          The app does not hold the secret of token{' '}
          <code>{profile.token.secretStorage === 'file' ? profile.token.tokenFile : profile.token.tokenId}</code> any more: it was kept for
          the last session only, or the cluster was imported. Enter it to use the cluster again.
        </p>
        <Field label="Token secret" problem={problem} help="The UUID Proxmox showed once when the token was made.">
          <input type="password" autoComplete="off" data-autofocus value={secret} onChange={(e) => setSecret(e.target.value)} />
        </Field>
        {error && <ErrorNotice title="The secret was not saved" error={error} />}
      </form>
    </Dialog>
  );
}
