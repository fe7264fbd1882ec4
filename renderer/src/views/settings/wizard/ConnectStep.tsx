/** Page 1: the cluster's URL and an API token. The secret stays in this form's state until it is saved. */
import type { TokenSection } from '../../../../../shared/channels/doctor';
import { Field } from '../../../components/common';

export interface Credentials {
  url: string;
  tokenId: string;
  secret: string;
}

export interface ConnectStepProps {
  value: Credentials;
  onChange: (value: Credentials) => void;
  /** The token section of the last run, when it refused the token. */
  refused: TokenSection | undefined;
  problems: Partial<Record<keyof Credentials, string>>;
}

export function ConnectStep({ value, onChange, refused, problems }: ConnectStepProps) {
  return (
    <div className="wizard-page">
      <p>Give the address of any node of the cluster and an API token.</p>
      {/* The user guide's step 3 says the same, with the commands (issue 23). */}
      <p role="note" aria-label="Which token" className="muted">
        Create it under Datacenter → Permissions → API Tokens and keep “Privilege Separation” ticked: the token then holds only
        what its own permissions grant, and you can revoke it without touching its user. Grant the roles to the token as well
        as to its user (Datacenter → Permissions → Add → API Token Permission); the user guide lists the commands.
      </p>
      <Field label="Cluster URL" problem={problems.url} help="For example https://pve1.home.lab:8006">
        <input data-autofocus value={value.url} onChange={(e) => onChange({ ...value, url: e.target.value })} placeholder="https://" />
      </Field>
      <Field label="Token ID" problem={problems.tokenId} help="user@realm!tokenname">
        <input value={value.tokenId} onChange={(e) => onChange({ ...value, tokenId: e.target.value })} autoComplete="off" />
      </Field>
      <Field label="Token secret" problem={problems.secret}>
        <input type="password" value={value.secret} onChange={(e) => onChange({ ...value, secret: e.target.value })} autoComplete="off" />
      </Field>
      {refused && (
        <div role="alert" className="error-notice error-permanent">
          <p className="error-message">{refused.message}</p>
          {refused.data.answer && (
            <p className="muted">
              Proxmox answered {refused.data.answer.status} {refused.data.answer.text}
            </p>
          )}
          <p className="error-hint">What to do: {refused.hint}</p>
        </div>
      )}
    </div>
  );
}
