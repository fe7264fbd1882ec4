/**
 * The Test action: main connects to the proxy's port and fetches a URL
 * through it. The form only picks the protocol and port; the input is
 * checked with the schema main uses before it is sent.
 */
import { useState } from 'react';
import { ProxyTestInput, type ProxyProtocol } from '../../../../shared/channels/proxy-check';
import { CopyButton } from '../../components/common/CopyButton';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { StateBadge } from '../../components/common/StateBadge';
import { formatLatency } from '../../format';
import { useActionsAvailable } from '../../stores/connection';
import { checkKey, useProxyCheck } from '../../stores/proxy-check';
import type { ProxyRow } from './rows';

const defaultPort: Record<ProxyProtocol, number> = { http: 3128, socks5: 1080 };

export function ProxyTest({ row }: { row: ProxyRow }) {
  const entry = useProxyCheck((s) => s.checks[checkKey(row.clusterId, row.vmid)]);
  const test = useProxyCheck((s) => s.test);
  const actions = useActionsAvailable();
  const [protocol, setProtocol] = useState<ProxyProtocol>(entry?.input.protocol ?? 'http');
  const [port, setPort] = useState(String(entry?.input.port ?? defaultPort.http));
  const parsed = ProxyTestInput.safeParse({ clusterId: row.clusterId, vmid: row.vmid, protocol, port: Number(port) });
  const portProblem = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'port')?.message;
  const proxyUrl = row.address ? `${protocol}://${row.address}:${port}` : undefined;
  const result = entry?.result;

  return (
    <section aria-label="Proxy test" className="drawer-section">
      <h3>Proxy address</h3>
      {proxyUrl ? (
        <p className="proxy-url">
          <code>{proxyUrl}</code> <CopyButton text={proxyUrl} label="Copy proxy address" />
        </p>
      ) : (
        <p>No address yet: the guest agent has not reported one.</p>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed.success) void test(parsed.data);
        }}
      >
        <Field label="Protocol">
          <select
            value={protocol}
            onChange={(e) => {
              const p = e.target.value as ProxyProtocol;
              setProtocol(p);
              setPort(String(defaultPort[p]));
            }}
          >
            <option value="http">HTTP</option>
            <option value="socks5">SOCKS5</option>
          </select>
        </Field>
        <Field label="Port" problem={portProblem}>
          <input inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} size={6} />
        </Field>
        <button
          type="submit"
          disabled={!parsed.success || entry?.running || !row.address || !actions.enabled}
          title={actions.reason ?? (row.address ? undefined : 'The VM has no address to test yet.')}
        >
          {entry?.running ? 'Testing…' : 'Test'}
        </button>
      </form>
      {entry?.error && <ErrorNotice error={entry.error} title="The test could not run" />}
      {result && (
        <div role="status" aria-label="Test result" className="test-result">
          <StateBadge state={result.reachable ? 'ok' : 'failed'} label={result.reachable ? 'Proxy works' : 'Proxy does not answer'} />
          <dl className="facts">
            <dt>Tested</dt>
            <dd>
              {result.protocol}://{result.address}:{result.port} → {result.targetUrl}
            </dd>
            <dt>Connect</dt>
            <dd>{formatLatency(result.connectMs)}</dd>
            <dt>Request</dt>
            <dd>
              {formatLatency(result.latencyMs)}
              {result.httpStatus !== undefined ? ` (HTTP ${result.httpStatus})` : ''}
            </dd>
            <dt>Egress address</dt>
            <dd>{result.egressAddress ?? 'unknown'}</dd>
          </dl>
          {result.note && <p className="muted">Note: {result.note}</p>}
          {result.problem && (
            <ErrorNotice
              error={{
                kind: result.problem.kind,
                message: `${result.problem.message} (stopped at the ${result.problem.stage} stage)`,
                hint: result.problem.hint,
              }}
              title={result.reachable ? 'Partly checked' : 'Why it failed'}
            />
          )}
        </div>
      )}
    </section>
  );
}
