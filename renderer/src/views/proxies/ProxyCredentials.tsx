/**
 * Issue 24: a proxy's username and password, asked of main only when the
 * user presses "Show password" or "Copy URL with credentials" for this proxy
 * (`proxies.credentials`). Shown until the drawer closes or "Hide" is
 * pressed; never kept in a store, so nothing else in the window holds it.
 *
 * "Rotate credentials" asks main for new ones (`proxies.rotateCredentials`):
 * after a confirm that says the VM reboots, a task like a reconfigure's,
 * shown in the task panel; main refuses in words what it cannot rotate.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { useTaskPanel } from '../../stores/task-panel';
import type { ProxyCredentialsAnswer } from '../../../../shared/channels/proxy-credentials';
import type { AppErrorValue } from '../../../../shared/errors';
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { useTasks } from '../../stores/tasks';

export interface ProxyCredentialsProps {
  clusterId: string;
  vmid: number;
  /** The proxy's name (a rotate names it, as every day-two action does); absent: no rotate offered. */
  name?: string | undefined;
  /** The VM runs: a rotate reboots it and checks the proxy, so it is offered only then. */
  running?: boolean | undefined;
  /** The proxy's address and endpoint, when known: what the URL with credentials is made of. */
  address?: string | undefined;
  protocol: 'http' | 'socks5';
  port: number;
}

export function ProxyCredentials({ clusterId, vmid, name, running, address, protocol, port }: ProxyCredentialsProps) {
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState<'asking' | 'started'>();
  const openPanel = useTaskPanel((s) => s.setOpen);
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

  const rotate = async () => {
    if (!api || !name) return;
    setRotating('asking');
    const answer = await api.request['proxies.rotateCredentials']({ clusterId, vmid, name });
    setConfirming(false);
    if (!answer.ok) {
      setRotating(undefined);
      setError(answer.error);
      return;
    }
    setError(undefined);
    setShown(undefined);
    setRotating('started');
    openPanel(true);
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
      {name && (
        <p>
          <button type="button" disabled={!running || rotating === 'asking'} onClick={() => setConfirming(true)}>
            Rotate credentials
          </button>
          {!running && <span className="muted"> Start the VM to rotate its credentials.</span>}
        </p>
      )}
      {confirming && name && (
        <ConfirmDialog
          title={`Rotate the credentials of ${name}?`}
          confirmLabel="Rotate and reboot"
          busy={rotating === 'asking'}
          onConfirm={() => void rotate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The app makes a new password, writes it into a new seed and <strong>reboots the VM</strong> through Proxmox:
            the proxy does not answer while it boots.
          </p>
          <p>
            Then it checks the proxy with the new password. Only when that passes does the new password replace the old
            one; clients still using the old one are refused from the reboot on.
          </p>
        </ConfirmDialog>
      )}
      <span role="status" className="rotate-outcome">
        {rotating === 'started' ? 'Rotate started: follow it in the task panel.' : ''}
      </span>
      <span role="status" className="copy-outcome">
        {copied === 'copied' ? 'Copied the URL with its password' : copied === 'failed' ? 'The clipboard refused; show the password and copy it by hand.' : ''}
      </span>
      {error && <ErrorNotice error={error} />}
    </div>
  );
}
