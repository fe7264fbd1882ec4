/**
 * Issue 24: the drawer's targets, "does this proxy reach the site I need".
 * Each check fetches them through the proxy after its echo; the table shows
 * each one's last fetch (result, time to first byte and in all) with a
 * sparkline of its last ones. Below, the lists to edit: the proxy's own,
 * and each of its tags' (a tag's targets apply to every proxy with it). A
 * list is checked by the shared rule (shared/domain/check-targets.ts)
 * before anything is sent; main checks again.
 */
import { useState } from 'react';
import type { CheckHistory, TargetCheckEntry, TargetSummary } from '../../../../shared/channels/checks';
import { MAX_TARGETS, parseTargets } from '../../../../shared/domain/check-targets';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { StateBadge } from '../../components/common/StateBadge';
import { DateTime } from '../../components/common/Time';
import { formatLatency } from '../../format';
import { useActionsAvailable } from '../../stores/connection';
import { useChecks } from '../../stores/checks';
import { Sparkline } from './Sparkline';

function fromWords(t: TargetSummary): string {
  return t.from.map((f) => ('tag' in f ? `tag ${f.tag}` : 'this proxy')).join(', ');
}

function lastWords(last: TargetCheckEntry | undefined): string {
  if (!last) return 'not fetched yet';
  if (last.ok) return `reached${last.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}`;
  return last.problem ?? `failed${last.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}`;
}

export function CheckTargets({ clusterId, vmid, history }: { clusterId: string; vmid: number; history: CheckHistory }) {
  const targets = history.targets ?? [];
  return (
    <div className="check-targets">
      <h4>Targets</h4>
      {targets.length === 0 ? (
        <p className="muted">No targets: list the sites this proxy must reach, and each check fetches them through it after its echo.</p>
      ) : (
        <table className="check-history target-table">
          <caption className="sr-only">Each target&apos;s last fetch through the proxy</caption>
          <thead>
            <tr>
              <th scope="col">Last result</th>
              <th scope="col">First byte / total</th>
              <th scope="col">Trend</th>
            </tr>
          </thead>
          {targets.map((t) => {
            const last = t.recent.at(-1);
            return (
              <tbody key={t.url}>
                <tr className="target-head">
                  <th scope="rowgroup" colSpan={3}>
                    <span className="target-url">{t.url}</span> <span className="muted target-from">({fromWords(t)})</span>
                  </th>
                </tr>
                <tr>
                  <td>
                    {last && <StateBadge state={last.ok ? 'ok' : 'failed'} label={last.ok ? 'ok' : 'failed'} />} {lastWords(last)}
                    {last && (
                      <span className="muted">
                        {' '}
                        <DateTime at={last.at} />
                      </span>
                    )}
                  </td>
                  <td className="target-timing">
                    {last?.ok ? (
                      <>
                        {formatLatency(last.firstByteMs)} / {formatLatency(last.totalMs)}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    <Sparkline values={t.recent.map((r) => (r.ok && r.totalMs !== undefined ? r.totalMs : null))} width={60} height={16} />
                  </td>
                </tr>
              </tbody>
            );
          })}
        </table>
      )}
      {history.targetsLeft && history.targetsLeft.length > 0 && (
        <p className="muted">
          Not fetched (a proxy fetches at most {MAX_TARGETS}): {history.targetsLeft.join(', ')}.
        </p>
      )}
      <TargetList
        label="This proxy's targets"
        help={`One http:// or https:// URL a line, at most ${MAX_TARGETS}; fetched after its tags' targets.`}
        urls={history.ownTargets ?? []}
        save={(urls) => useChecks.getState().setTargets(clusterId, { vmid }, urls, vmid)}
      />
      {(history.tagTargets ?? []).map((t) => (
        <TargetList
          key={t.tag}
          label={`Targets of every proxy tagged “${t.tag}”`}
          help="Applies to each proxy with this tag in the cluster."
          urls={t.urls}
          save={(urls) => useChecks.getState().setTargets(clusterId, { tag: t.tag }, urls, vmid)}
        />
      ))}
    </div>
  );
}

function TargetList({
  label,
  help,
  urls,
  save,
}: {
  label: string;
  help: string;
  urls: readonly string[];
  save(urls: string[]): Promise<AppErrorValue | undefined>;
}) {
  const actions = useActionsAvailable();
  const [text, setText] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorValue>();
  const shown = text ?? urls.join('\n');
  const parsed = parseTargets(shown);
  const problem = text !== undefined && !parsed.ok ? parsed.problem : undefined;
  return (
    <form
      className="target-list"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!parsed.ok) return;
        setBusy(true);
        const failed = await save(parsed.urls);
        setBusy(false);
        setError(failed);
        if (!failed) setText(undefined);
      }}
    >
      <Field label={label} problem={problem} help={help}>
        <textarea
          rows={Math.min(Math.max(2, shown.split('\n').length + 1), 6)}
          value={shown}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
      </Field>
      <button type="submit" disabled={busy || !actions.enabled || text === undefined || !parsed.ok}>
        Save targets
      </button>
      {error && <ErrorNotice error={error} title="The targets were not changed" />}
    </form>
  );
}
