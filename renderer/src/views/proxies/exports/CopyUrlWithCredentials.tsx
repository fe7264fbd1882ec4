/**
 * Issue 24 §3: the drawer's "Copy with password": main answers the proxy's
 * URL with its username and password percent-encoded (proxies.url), only
 * after the one warning was confirmed; a proxy without credentials Egress
 * Desk keeps is copied without them, and the button says so.
 */
import { useState } from 'react';
import type { AppErrorValue } from '../../../../../shared/errors';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import type { ProxyRow } from '../rows';
import { CredentialsConsent, useCredentialsAcknowledged } from './CredentialsConsent';
import { requestProxyUrl } from './export-store';

export function CopyUrlWithCredentials({ row }: { row: ProxyRow }) {
  const acknowledged = useCredentialsAcknowledged();
  const [asking, setAsking] = useState(false);
  const [said, setSaid] = useState('');
  const [error, setError] = useState<AppErrorValue>();
  const copy = async () => {
    setError(undefined);
    const answer = await requestProxyUrl(row.clusterId, row.vmid, true);
    if (!answer.ok) return setError(answer.error);
    try {
      await navigator.clipboard.writeText(answer.value.url);
      setSaid(
        answer.value.withCredentials ? 'Copied with the password' : 'This proxy has no credentials Egress Desk keeps: copied without',
      );
    } catch {
      setSaid('The clipboard refused.');
    }
  };
  return (
    <>
      <span className="copy">
        <button type="button" onClick={() => (acknowledged ? void copy() : setAsking(true))}>
          Copy with password
        </button>
        <span role="status" className="copy-outcome">
          {said}
        </span>
      </span>
      {asking && (
        <CredentialsConsent
          onAccept={() => {
            setAsking(false);
            void copy();
          }}
          onDecline={() => setAsking(false)}
        />
      )}
      {error && <ErrorNotice error={error} title="The URL could not be copied" />}
    </>
  );
}
