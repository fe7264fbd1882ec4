/** The way into Create proxy from the Overview and the Proxies view; Ctrl+N does the same from anywhere. */
import { openCreateProxy } from './open-state';
import { useActionsAvailable } from '../../stores/connection';

export function NewProxyButton({ label = 'New proxy', primary = true }: { label?: string; primary?: boolean }) {
  const actions = useActionsAvailable();
  return (
    <button
      type="button"
      className={primary ? 'primary' : undefined}
      disabled={!actions.enabled}
      title={actions.reason ?? 'Create a proxy VM (Ctrl+N)'}
      aria-keyshortcuts="Control+N"
      onClick={openCreateProxy}
    >
      {label}
    </button>
  );
}
