/**
 * The one warning before credentials go into an export the user takes away:
 * shown once; the confirmation is kept in main's
 * settings (exportCredentialsAcknowledged), and main refuses credentials
 * until it is given.
 */
import { useState } from 'react';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { useSettings } from '../../../stores/settings';
import type { AppErrorValue } from '../../../../../shared/errors';

export const useCredentialsAcknowledged = () => useSettings((s) => s.settings?.exportCredentialsAcknowledged === true);

export function CredentialsConsent({ onAccept, onDecline }: { onAccept: () => void; onDecline: () => void }) {
  const update = useSettings((s) => s.update);
  const [error, setError] = useState<AppErrorValue>();
  const accept = async () => {
    const answer = await update({ exportCredentialsAcknowledged: true });
    if (answer.ok) onAccept();
    else setError(answer.error);
  };
  return (
    <div role="alert" className="credentials-consent">
      <p>
        <strong>Passwords in clear text.</strong> The text will hold each proxy’s username and password as they are: anyone who reads the
        file, the clipboard or a screen share can use your proxies. Keep it where only you can read it. You are asked this once.
      </p>
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void accept()}>
          Include credentials
        </button>
        <button type="button" onClick={onDecline}>
          Leave them out
        </button>
      </div>
      {error && <ErrorNotice error={error} title="The choice could not be saved" />}
    </div>
  );
}
