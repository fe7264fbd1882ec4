/**
 * The drawer's action bar (issue 16): every row action for the one VM, at
 * the top of the drawer under its address and Test. Enabled by the shared
 * rules (shared/domain/proxy-actions.ts); a disabled button stays
 * focusable (aria-disabled) and says why in its title and description. A
 * foreign VM gets the console only (it is read-only for the app).
 */
import { useId } from 'react';
import { actionApplicability, proxyActions, readOnlyActions } from '../../../../../shared/domain/proxy-actions';
import { useActionsAvailable } from '../../../stores/connection';
import { useInventory } from '../../../stores/inventory';
import { useProfiles } from '../../../stores/profiles';
import type { ProxyRow } from '../rows';
import { useProxyActions } from './action-store';
import { subjectOf } from './action-subject';
import { menuLabel } from './ActionMenu';
import './actions.css';

export function ActionBar({ row }: { row: ProxyRow }) {
  const ask = useProxyActions((s) => s.ask);
  const clusters = useInventory((s) => s.clusters);
  const profiles = useProfiles((s) => s.list?.profiles);
  const available = useActionsAvailable();
  const id = useId();
  const subject = subjectOf(row, clusters, profiles);
  const applies = actionApplicability(subject);
  const shown = row.owner === 'foreign' ? readOnlyActions : proxyActions;
  return (
    <section className="drawer-section" aria-label="Actions">
      <div className="action-bar" role="group" aria-label="Actions">
        {shown.map((a) => {
          const readOnly = readOnlyActions.includes(a);
          const enabled = applies[a].enabled && (available.enabled || readOnly);
          const reason = !available.enabled && !readOnly ? available.reason : applies[a].reason;
          return (
            <span key={a}>
              <button
                type="button"
                className={a === 'stop' || a === 'delete' ? 'danger-outline' : undefined}
                aria-disabled={enabled ? undefined : true}
                aria-describedby={enabled ? undefined : `${id}-${a}`}
                title={enabled ? undefined : reason}
                onClick={() => enabled && ask(a, [subject])}
              >
                {menuLabel(a)}
              </button>
              {!enabled && (
                <span id={`${id}-${a}`} className="sr-only">
                  {reason}
                </span>
              )}
            </span>
          );
        })}
      </div>
      {row.owner === 'foreign' && (
        <p className="muted">This VM carries no proxy mark: Egress Desk only opens its console (read-only) and changes nothing on it.</p>
      )}
      {row.ours === false && (
        <p className="muted">Operator-made: each action asks you to acknowledge that the operator reconciles it and may undo the change.</p>
      )}
    </section>
  );
}
