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
};
