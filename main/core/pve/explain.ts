/**
 * Turns a client failure into what a user reads: its class, a plain
 * message and a hint that says what to change. Shaped like the contract's
 * AppErrorValue so a service can pass it on as is.
 */
import {
  AgentRefusedError,
  AnswerTooLargeError,
  ApiError,
  STORAGE_PLACEMENT_HINTS,
  classifyApiFailure,
  storagePlacementRefusal,
  isAuthenticationFailure,
  isNoSuchStorage,
  missingPrivilege,
  TaskFailedError,
  TlsVerificationError,
  TokenFileError,
  TransportError,
  type FailureClass,
} from './errors';

export interface ExplainedFailure {
  kind: FailureClass;
  message: string;
  hint: string;
}

const transportHints: Record<TransportError['failure'], string> = {
  connect: 'Check the URL and port (8006), that the host is up, and that this computer can reach it.',
  timeout: 'Proxmox is slow or unreachable; try again, or raise the request timeout in the connection settings.',
  reset: 'The connection was cut; try again. If it keeps happening, check the network path to the host.',
  aborted: 'The request was cancelled.',
  protocol: 'Try again; if it keeps failing, check that the URL points at Proxmox VE (https://host:8006).',
};

const tlsHints: Record<TlsVerificationError['reason'], string> = {
  'unknown-ca': "Give the cluster's CA certificate (/etc/pve/pve-root-ca.pem) or pin the certificate's fingerprint.",
  hostname: 'Use a host name or address the certificate lists, or set the TLS server name to one of them.',
  fingerprint:
    "The certificate changed or this is another server: compare the fingerprint with the node's (Certificates in the Proxmox UI) and update the pin.",
  invalid: "Renew the node's certificate (pvecm updatecerts) or fix this computer's clock.",
};

function apiHint(err: ApiError, kind: FailureClass): string {
  if (isAuthenticationFailure(err))
    return 'Check the token id (user@realm!tokenid) and its secret; the token may have been deleted or expired.';
  const missing = missingPrivilege(err);
  if (missing) {
    return `Grant ${missing.privilege} on ${missing.path} to the token (a grant on a more specific path replaces the inherited one).`;
  }
  if (isNoSuchStorage(err)) return 'Pick a storage that exists on this cluster.';
  const storage = storagePlacementRefusal(err);
  if (storage) return STORAGE_PLACEMENT_HINTS[storage];
  if (err.status === 400) return 'Proxmox rejected the request; correct the named field.';
  if (kind === 'not-found') return 'Refresh the view: the VM is gone.';
  return 'Try again in a moment; Proxmox may be busy or a task may hold the VM.';
}

export function explainPveFailure(op: string, err: unknown): ExplainedFailure {
  const kind = classifyApiFailure(op, err);
  if (err instanceof ApiError) return { kind, message: err.describe(), hint: apiHint(err, kind) };
  if (err instanceof TlsVerificationError) return { kind, message: err.message, hint: tlsHints[err.reason] };
  if (err instanceof AgentRefusedError) return { kind, message: err.message, hint: err.hint };
  if (err instanceof AnswerTooLargeError) return { kind, message: err.message, hint: err.hint };
  if (err instanceof TaskFailedError && err.hint) return { kind, message: err.message, hint: err.hint };
  if (err instanceof TransportError) return { kind, message: err.message, hint: transportHints[err.failure] };
  if (err instanceof TokenFileError) {
    const hint =
      err.reason === 'missing' ? 'Create the token file, or wait until it is in place.' : 'Write one line: user@realm!tokenid=secret.';
    return { kind, message: err.message, hint };
  }
  const message = err instanceof Error ? err.message : 'Unexpected failure talking to Proxmox';
  return { kind, message, hint: 'Try again; if it keeps failing, the log has the details.' };
}
