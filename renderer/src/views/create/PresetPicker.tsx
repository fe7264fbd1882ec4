/** Chooses a preset and its listening port; "Use preset" replaces the editor's text with the filled-in template. */
import { Field } from '../../components/common/Field';
import { presets } from './presets';

export interface PresetPickerProps {
  presetId: string;
  port: string;
  portProblem: string | undefined;
  onChange: (presetId: string, port: string) => void;
  onApply: (text: string) => void;
}

export function PresetPicker({ presetId, port, portProblem, onChange, onApply }: PresetPickerProps) {
  const preset = presets.find((p) => p.id === presetId) ?? presets[0];
  return (
    <fieldset className="preset-picker">
      <legend>Preset</legend>
      <Field label="Proxy software">
        <select
          value={presetId}
          onChange={(e) => {
            const next = presets.find((p) => p.id === e.target.value);
            if (next) onChange(next.id, String(next.defaultPort));
          }}
        >
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Listening port" problem={portProblem}>
        <input inputMode="numeric" value={port} size={6} onChange={(e) => onChange(presetId, e.target.value)} />
      </Field>
      <button type="button" disabled={!preset || portProblem !== undefined} onClick={() => preset && onApply(preset.render(Number(port)))}>
        Use preset
      </button>
      <span className="field-help">Replaces the user-data below.</span>
    </fieldset>
  );
}
