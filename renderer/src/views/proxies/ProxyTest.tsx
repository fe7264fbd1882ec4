/**
 * The Test action: main connects to the proxy's port and fetches a URL
 * through it. The form only picks the protocol and port, starting from the
 * proxy's one endpoint as main knows it (checks.history: what the scheduled
 * checks use), so the address shown, its copy button, Test and the checks
 * name the same port; the input is checked with main's schema before it is sent.
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
import { checksKey, useChecks } from '../../stores/checks';
import { DEFAULT_ENDPOINT, DEFAULT_PORT } from '../../../../shared/domain/proxy-endpoint';
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import type { ProxyRow } from './rows';
import { ProxyCredentials } from './ProxyCredentials';

export function ProxyTest({ row }: { row: ProxyRow }) {
  const entry = useProxyCheck((s) => s.checks[checkKey(row.clusterId, row.vmid)]);
  const test = useProxyCheck((s) => s.test);
  const actions = useActionsAvailable();
  // Issue 23 item 5: main's one endpoint for the proxy (the one the scheduled checks use: a Test's, else the seed's
  // user-data's, else the demo preset's, else Squid's), until the user picks another here.
  const history = useChecks((s) => s.histories[checksKey(row.clusterId, row.vmid)]);
  const known = history?.value?.endpoint;
  const [edited, setEdited] = useState<{ protocol: ProxyProtocol; port: string } | undefined>();
  const fromMain = entry?.input ?? known;
  const protocol = edited?.protocol ?? fromMain?.protocol ?? DEFAULT_ENDPOINT.protocol;
  const port = edited?.port ?? String(fromMain?.port ?? DEFAULT_PORT[protocol]);
  const setProtocol = (p: ProxyProtocol) => setEdited({ protocol: p, port: String(DEFAULT_PORT[p]) });
  const setPort = (value: string) => setEdited({ protocol, port: value });
  // Until main answered (an unreadable history: the defaults, which the user can change).
  const loading = fromMain === undefined && edited === undefined && history?.error === undefined;
  const parsed = ProxyTestInput.safeParse({ clusterId: row.clusterId, vmid: row.vmid, protocol, port: Number(port) });
  const portProblem = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'port')?.message;
  const proxyAddress = row.address && !loading && parsed.success ? proxyUrl({ protocol, port: Number(port) }, row.address) : undefined;
  const result = entry?.result;

  return (
    <section aria-label="Proxy test" className="drawer-section">
      <h3>Proxy address</h3>
      {proxyAddress ? (
        <div className="proxy-url">
          <code>{proxyAddress}</code> <CopyButton text={proxyAddress} label="Copy proxy address" />
        </div>
      ) : row.address && loading ? (
        <p className="muted">Reading which port it listens on…</p>
      ) : row.address ? (
        <p>Give a valid port below to see its address.</p>
      ) : (
        <p>No address yet: the guest agent has not reported one.</p>
      )}
      {parsed.success && (
        <ProxyCredentials
          clusterId={row.clusterId}
          vmid={row.vmid}
          name={row.name}
          running={row.status === 'running'}
          address={row.address} protocol={protocol} port={Number(port)} />
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed.success) void test(parsed.data);
        }}
      >
        <Field label="Protocol">
          <select value={protocol} onChange={(e) => setProtocol(e.target.value as ProxyProtocol)}>
            <option value="http">HTTP</option>
            <option value="socks5">SOCKS5</option>
          </select>
        </Field>
        <Field label="Port" problem={portProblem}>
          <input inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} size={6} />
        </Field>
        <button
          type="submit"
          disabled={!parsed.success || loading || entry?.running || !row.address || !actions.enabled}
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
              {proxyUrl(result, result.address)} → {result.targetUrl}
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
