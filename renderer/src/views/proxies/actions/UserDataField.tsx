/**
 * The cloud-init user-data of a day-two dialog (migrate of a proxy the app
 * has no record of, reconfigure, recreate), in the create dialog's YAML
 * editor, with the Create presets above it to start from (issue 23 item 4:
 * the words for an empty text point at them, so they must be there).
 * Proxmox cannot read a seed ISO back; the app keeps the user-data of the
 * seeds it wrote (sealed, in main), so it asks only where it has none.
 */
import { useId } from 'react';
import { Field } from '../../../components/common/Field';
import { CloudInitEditor } from '../../create/CloudInitEditor';
import { presets } from '../../create/presets';

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
      <Field
        label="Start from a preset"
        help="Puts the preset's user-data, on its usual port and asking for the proxy's username and password (which main keeps and fills in), in the editor below (replacing its text)."
      >
        <select
          value=""
          onChange={(e) => {
            const preset = presets.find((p) => p.id === e.target.value);
            // With credentials, as Create makes a proxy by default (issue 24): main fills the placeholders from the
            // proxy's kept username and password, or makes them, so a preset picked here never drops the proxy's auth.
            if (preset) onChange(preset.render(preset.defaultPort, { credentials: true }));
          }}
        >
          <option value="">Choose a preset…</option>
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}, port {p.defaultPort}
            </option>
          ))}
        </select>
      </Field>
      <span className="field-label">Cloud-init user-data</span>
      <CloudInitEditor value={value} onChange={onChange} label="Cloud-init user-data" describedBy={`${id}-help`} presetsAbove />
      <span id={`${id}-help`} className={problem ? 'field-problem' : 'field-help'}>
        {problem ?? help}
      </span>
    </div>
  );
}
