/** The node check's reason codes as the admin would say them. */
import type { HealthReason } from '../../../../shared/channels/health';

export const reasonWords: Record<HealthReason, string> = {
  Reachable: 'Healthy',
  Timeout: 'Not answering in time',
  Unreachable: 'Unreachable',
  Unauthorized: 'Token refused',
  Forbidden: 'Missing a privilege',
  APIError: 'Proxmox reported an error',
  CertificateInvalid: 'Certificate not trusted',
  CredentialsUnavailable: 'Token file unreadable',
  StorageNotFound: 'Seed storage missing',
  TemplateNotFound: 'Template missing',
  SecretMissing: 'Not checked: secret needed',
};

/** The badge for a check's result: a node not checked for want of the secret is not a failed one. */
export function reasonBadge(latest: { ready: boolean; reason: HealthReason }): { state: string; label: string; tone?: 'neutral' } {
  if (latest.ready) return { state: 'ready', label: reasonWords[latest.reason] };
  if (latest.reason === 'SecretMissing') return { state: 'pending', label: reasonWords[latest.reason], tone: 'neutral' };
  return { state: 'failed', label: reasonWords[latest.reason] };
}
