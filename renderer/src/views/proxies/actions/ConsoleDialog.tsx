/**
 * A VM's console (issue 16): the Proxmox web UI's own console page, opened
 * in the system browser since it runs on the user's Proxmox login (the app's
 * token never opens it). main reads where the VM is now (`console.links`);
 * the exact URL is shown, copyable. window.open goes to the system browser:
 * in Electron through the window-open handler (main/security/navigation.ts,
 * shell.openExternal for http(s) links only), in browser mode a new tab.
 * Read-only for the app, so a foreign VM gets it too.
 */
import { useEffect, useState } from 'react';
import type { ConsoleLinks } from '../../../../../shared/channels/console';
import type { AppErrorValue } from '../../../../../shared/errors';
import { CopyButton } from '../../../components/common/CopyButton';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { useProfiles } from '../../../stores/profiles';
import { useTasks } from '../../../stores/tasks';
import { useProxyActions, type PendingAction } from './action-store';

const viewerLabel = { novnc: 'noVNC (the screen)', xtermjs: 'xterm.js (the serial console)' } as const;

export function ConsoleDialog({ pending }: { pending: PendingAction }) {
  const cancel = useProxyActions((s) => s.cancel);
  const api = useTasks((s) => s.api);
  const row = pending.rows[0]!;
  const demo = useProfiles((s) => s.list?.profiles.find((p) => p.id === row.clusterId)?.demo);
  const [answer, setAnswer] = useState<{ links?: ConsoleLinks; error?: AppErrorValue }>();
  useEffect(() => {
    if (!api) return;
    let current = true;
    void api.request['console.links']({ clusterId: row.clusterId, vmid: row.vmid, name: row.name ?? '' }).then((a) => {
      if (current) setAnswer(a.ok ? { links: a.value } : { error: a.error });
    });
    return () => {
      current = false;
    };
  }, [api, row.clusterId, row.vmid, row.name]);

  return (
    <Dialog
      title={`Console of ${row.name ?? `VM ${row.vmid}`}`}
      onClose={cancel}
      footer={
        <button type="button" data-autofocus onClick={cancel}>
          Close
        </button>
      }
    >
      <p>
        The console opens in your browser, in the Proxmox web UI: it uses your own Proxmox login there (which needs VM.Console on this VM),
        not Egress Desk's token.{row.status !== 'running' ? ' The VM is not running: the console shows nothing until it starts.' : ''}
      </p>
      {demo && <p className="muted">This is the built-in simulated cluster: it has no web UI, so the page will not load.</p>}
      {!answer && <p role="status">Looking up where the VM is…</p>}
      {answer?.error && <ErrorNotice error={answer.error} title="The console could not be found" />}
      {answer?.links && (
        <ul className="plain-list console-links">
          {answer.links.links.map((l) => (
            <li key={l.viewer}>
              <p>
                <strong>{viewerLabel[l.viewer]}</strong> on {answer.links!.node}
              </p>
              <p className="mono console-url" aria-label={`${viewerLabel[l.viewer]} URL`}>
                {l.url}
              </p>
              <button type="button" className="primary" onClick={() => window.open(l.url, '_blank', 'noopener,noreferrer')}>
                Open {l.viewer === 'novnc' ? 'noVNC' : 'xterm.js'} in the browser
              </button>{' '}
              <CopyButton text={l.url} label={`Copy the ${l.viewer === 'novnc' ? 'noVNC' : 'xterm.js'} URL`} />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
