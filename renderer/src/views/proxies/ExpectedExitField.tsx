/**
 * Issue 24: the drawer's expected exit of a proxy: where its traffic should
 * leave for the internet, typed as an address, a CIDR or several, or the
 * first good check's address confirmed. The scheduled checks raise "Egress
 * outside the expected" when a check leaves elsewhere, and then propose that
 * address as the new exit (a proxy moved to another VLAN on purpose). The words of a bad
 * entry are the shared rule's (shared/domain/expected-exit.ts), shown before
 * anything is sent; main checks again.
 */
import { useState } from 'react';
import type { CheckHistory } from '../../../../shared/channels/checks';
import { expectedExitWords, parseExpectedExit } from '../../../../shared/domain/expected-exit';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { useActionsAvailable } from '../../stores/connection';
import { useChecks } from '../../stores/checks';

export function ExpectedExitField({ clusterId, vmid, history }: { clusterId: string; vmid: number; history: CheckHistory }) {
  const setExpectedExit = useChecks((s) => s.setExpectedExit);
  const actions = useActionsAvailable();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorValue>();
  const parsed = parseExpectedExit(text);
  const problem = (tried || text.trim() !== '') && !parsed.ok ? parsed.problem : undefined;
  const send = async (change: Parameters<typeof setExpectedExit>[2]) => {
    setBusy(true);
    const failed = await setExpectedExit(clusterId, vmid, change);
    setBusy(false);
    setError(failed);
    if (!failed) {
      setText('');
      setTried(false);
    }
  };
  const disabled = busy || !actions.enabled;
  return (
    <div className="expected-exit">
      {history.expectedExit ? (
        <>
          <p>
            Expected exit: <strong>{expectedExitWords(history.expectedExit)}</strong>. A check that leaves elsewhere raises an alert.{' '}
            <button type="button" className="link-button" disabled={disabled} onClick={() => void send({ clear: true })}>
              Clear
            </button>
          </p>
          {history.learnedExit && (
            <p className="expected-exit-moved" role="status">
              The last check left from <strong>{history.learnedExit}</strong>, outside it. If the proxy was moved on purpose (another
              bridge, VLAN or uplink), make that its exit.{' '}
              <button type="button" disabled={disabled} onClick={() => void send({ confirmLearned: true })}>
                Expect {history.learnedExit} instead
              </button>
            </p>
          )}
        </>
      ) : history.learnedExit ? (
        <p>
          The first good check left from <strong>{history.learnedExit}</strong>.{' '}
          <button type="button" disabled={disabled} onClick={() => void send({ confirmLearned: true })}>
            Expect {history.learnedExit}
          </button>
        </p>
      ) : (
        <p className="muted">No expected exit yet: the first good check proposes one.</p>
      )}
      <form
        className="expected-exit-form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (parsed.ok) void send({ expected: text });
        }}
      >
        <Field
          label="Set the expected exit"
          problem={problem}
          help="An address, a CIDR like 203.0.113.0/28, or several separated by commas."
        >
          <input value={text} spellCheck={false} autoComplete="off" onChange={(e) => setText(e.target.value)} />
        </Field>
        <button type="submit" disabled={disabled}>
          Save
        </button>
      </form>
      {error && <ErrorNotice error={error} title="The expected exit was not changed" />}
    </div>
  );
}
