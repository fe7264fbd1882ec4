/**
 * The shell's word on the link to main. While it is down: one banner above
 * every view ("Not connected to Egress Desk since 12:03:14 — showing data
 * from then") and the view itself drawn as stale (`StaleFrame`); actions are
 * off meanwhile (`useActionsAvailable`). Once it is back: the changes whose
 * answer the drop took with it, as "unknown outcome: check Tasks".
 */
import type { ReactNode } from 'react';
import type { ChannelName } from '../../../shared/contract';
import { clockTime, useConnection } from '../stores/connection';
import { useUi } from '../stores/ui';
import './connection.css';
import './notices.css';

const actionWords: Partial<Record<ChannelName, string>> = {
  'tasks.createProxies': 'Create proxy',
  'tasks.deleteProxies': 'Delete proxies',
  'tasks.power': 'Start, shut down, stop or reboot',
  'tasks.powerOffer': 'Stop it / Wait longer',
  'tasks.migrate': 'Migrate',
  'tasks.reconfigure': 'Reconfigure',
  'tasks.recreate': 'Recreate',
  'tasks.cancel': 'Cancel task',
  'tasks.retry': 'Retry task',
  'tasks.resume': 'Resume task',
  'tasks.cleanUp': 'Clean up',
  'tasks.runDoctor': 'Run doctor',
  'cleanup.deleteSeeds': 'Delete seeds',
  'profiles.save': 'Save cluster',
  'profiles.delete': 'Remove cluster',
  'profiles.import': 'Import clusters',
  'settings.set': 'Save settings',
  'templates.build': 'Build template',
  'templates.verify': 'Verify template',
};

export const wordsForChannel = (channel: ChannelName): string => actionWords[channel] ?? channel;

export function ConnectionBanner() {
  const lostAt = useConnection((s) => s.lostAt);
  const unknown = useConnection((s) => s.unknownOutcomes);
  if (lostAt !== undefined) {
    return (
      <div className="stale-banner" role="alert" aria-label="Not connected">
        <p>
          <strong>Not connected to Egress Desk since {clockTime(lostAt)} — showing data from then.</strong> Actions are off
          until the connection is back; the window reconnects by itself.
        </p>
      </div>
    );
  }
  if (unknown.length === 0) return null;
  const names = [...new Set(unknown.map((u) => wordsForChannel(u.channel)))];
  return (
    <div className="unknown-outcome-banner" role="region" aria-label="Unknown outcome">
      <p>
        <strong>Unknown outcome: check Tasks.</strong> The connection dropped before Egress Desk answered{' '}
        {names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`}
        {unknown.length > 1 ? ` (${unknown.length} requests)` : ''}: it may or may not have run. Tasks shows what did.
      </p>
      <div className="unknown-outcome-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            useUi.getState().setView('tasks');
            useConnection.getState().dismissUnknownOutcomes();
          }}
        >
          Open Tasks
        </button>
        <button type="button" onClick={() => useConnection.getState().dismissUnknownOutcomes()}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** The current view, drawn as stale (and saying so to assistive technology) while main is unreachable. */
export function StaleFrame({ children }: { children: ReactNode }) {
  const stale = useConnection((s) => s.lostAt !== undefined);
  return (
    <div className="stale-frame" data-stale={stale ? 'true' : undefined} aria-busy={stale || undefined}>
      {children}
    </div>
  );
}
