/**
 * The cloud-init user-data of a day-two dialog (migrate with a local seed,
 * reconfigure, recreate), in the create dialog's YAML editor. Proxmox cannot
 * read a seed ISO back and Egress Desk keeps no readable copy, so the user
 * pastes the user-data the proxy was made with (or new user-data).
 */
import { useId } from 'react';
import { CloudInitEditor } from '../../create/CloudInitEditor';

export function UserDataField({
  value,
  onChange,
  help,
  problem,
}: {
  value: string;
  onChange: (text: string) => void;
  help: string;
  /** Shown once the user tried to go on. */
  problem: string | undefined;
}) {
  const id = useId();
  return (
    <div className={`field${problem ? ' field-invalid' : ''}`}>
      <span className="field-label">Cloud-init user-data</span>
      <CloudInitEditor value={value} onChange={onChange} label="Cloud-init user-data" describedBy={`${id}-help`} />
      <span id={`${id}-help`} className={problem ? 'field-problem' : 'field-help'}>
        {problem ?? help}
      </span>
    </div>
  );
}
