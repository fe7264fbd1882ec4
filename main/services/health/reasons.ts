/** What an admin should do about each reason of the core's node check (spec entry 16). */
import type { HealthReason } from '../../../shared/channels/health';

export const healthHints: Record<HealthReason, string> = {
  Reachable: 'Nothing to do: the node answers, the seed storage holds ISOs and every template is there.',
  Timeout: "The node did not answer in time. Check its load and the network path to it; raise the profile's request timeout if it is slow.",
  Unreachable:
    'The node cannot be reached (or the API host cannot reach it: 595/596). Check that it is powered on, on the network and in the cluster (pvecm status).',
  Unauthorized:
    'The API token was refused. Check the token id and secret in the profile, and that the token has not expired or been deleted.',
  Forbidden:
    'The token lacks a privilege. Run the connect doctor on this cluster: it lists each missing privilege and the pveum command that grants it.',
  APIError: 'Proxmox answered with an error. Read the message; the task log on the node (Tasks panel) often says more.',
  CertificateInvalid:
    "The node's certificate does not match the profile's choice. Check the URL's host name and the CA or pinned fingerprint in the profile.",
  CredentialsUnavailable:
    'The token file could not be read. Check that the file exists, is readable and holds `user@realm!tokenid=secret`.',
  StorageNotFound:
    "The profile's seed storage is missing, inactive or not enabled for ISO images on this node. In Datacenter → Storage, add the node to it and tick content ISO image.",
  SecretMissing:
    "Not checked: the token secret of this cluster is not available (it was kept for a session only, or the profile was imported). Enter it again (Enter secret); nothing is wrong with the cluster.",
  TemplateNotFound:
    'A configured template is missing or is not a template. Fix the templates in the profile, or convert the VM to a template.',
};
