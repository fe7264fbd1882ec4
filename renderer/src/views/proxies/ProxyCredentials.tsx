/**
 * Issue 24: a proxy's username and password, asked of main only when the
 * user presses "Show password" or "Copy URL with credentials" for this proxy
 * (`proxies.credentials`). Shown until the drawer closes or "Hide" is
 * pressed; never kept in a store, so nothing else in the window holds it.
 */
import { useState } from 'react';
import type { ProxyCredentialsAnswer } from '../../../../shared/channels/proxy-credentials';
import type { AppErrorValue } from '../../../../shared/errors';
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { useTasks } from '../../stores/tasks';

export interface ProxyCredentialsProps {
  clusterId: string;
  vmid: number;
  /** The proxy's address and endpoint, when known: what the URL with credentials is made of. */
  address?: string | undefined;
  protocol: 'http' | 'socks5';
  port: number;
}

export function ProxyCredentials({ clusterId, vmid, address, protocol, port }: ProxyCredentialsProps) {
  const api = useTasks((s) => s.api);
  const [shown, setShown] = useState<ProxyCredentialsAnswer>();
  const [error, setError] = useState<AppErrorValue>();
  const [copied, setCopied] = useState<'copied' | 'failed'>();

  const ask = async (): Promise<ProxyCredentialsAnswer | undefined> => {
    if (!api) return undefined;
    const answer = await api.request['proxies.credentials']({ clusterId, vmid });
    if (!answer.ok) {
      setError(answer.error);
      return undefined;
    }
    setError(undefined);
    return answer.value;
  };
  const copyUrl = async () => {
    const creds = await ask();
    if (!creds || !address) return;
    try {
      await navigator.clipboard.writeText(proxyUrl({ protocol, port }, address, creds));
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <div className="proxy-credentials">
      <h4>Username and password</h4>
      {shown ? (
        <p>
          <span>
            Username <code>{shown.username}</code>, password <code>{shown.password}</code>
          </span>{' '}
          <button type="button" onClick={() => setShown(undefined)}>
            Hide password
          </button>
        </p>
      ) : (
        <p>
          <button type="button" onClick={() => void ask().then(setShown)}>
            Show password
          </button>{' '}
          <button type="button" disabled={!address} onClick={() => void copyUrl()}>
            Copy URL with credentials
          </button>
        </p>
      )}
      <span role="status" className="copy-outcome">
        {copied === 'copied' ? 'Copied the URL with its password' : copied === 'failed' ? 'The clipboard refused; show the password and copy it by hand.' : ''}
      </span>
      {error && <ErrorNotice error={error} />}
    </div>
  );
}
