/**
 * Chooses a preset and its listening port. Choosing a preset puts its
 * user-data in the editor at once (the dialog asks first when the text was
 * edited); a new port moves the port in the text; "Reset to preset" puts
 * the preset's text back.
 */
import type { ReactNode } from 'react';
import { Field } from '../../components/common/Field';
import { presets } from './presets';

export interface PresetPickerProps {
  presetId: string;
  port: string;
  portProblem: string | undefined;
  /** Said under the port when the text could not follow it. */
  portNote?: ReactNode;
  /** Whether the text differs from what the preset wrote. */
  edited: boolean;
  onChoose: (presetId: string) => void;
  /** Issue 24: the preset asks for a username and password (main makes the password and fills it in the seed). */
  credentials: boolean;
  onCredentials: (on: boolean) => void;
  onPort: (port: string) => void;
  onReset: () => void;
}

export function PresetPicker(props: PresetPickerProps) {
  const { presetId, port, portProblem, portNote, edited, onChoose, onPort, onReset, credentials, onCredentials } = props;
  return (
    <fieldset className="preset-picker">
      <legend>Preset</legend>
      <Field label="Proxy software">
        <select value={presetId} onChange={(e) => onChoose(e.target.value)}>
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Listening port" problem={portProblem}>
        <input inputMode="numeric" value={port} size={6} onChange={(e) => onPort(e.target.value)} />
      </Field>
      <label className="checkbox-line">
        <input type="checkbox" checked={credentials} onChange={(e) => onCredentials(e.target.checked)} />
        Require a username and password
      </label>
      <span className="field-help">
        {credentials
          ? 'The app makes a strong password and keeps it with the cluster token; Test and the checks use it. Show or copy it from the proxy’s details.'
          : 'Anyone on the allowed networks can use this proxy.'}
      </span>
      <button type="button" disabled={!edited || portProblem !== undefined} onClick={onReset}>
        Reset to preset
      </button>
      <span className="field-help">
        {edited ? 'The user-data below was edited.' : 'The user-data below is the preset’s, with this port.'}
      </span>
      {portNote && (
        <p className="preset-note" role="status">
          {portNote}
        </p>
      )}
    </fieldset>
  );
}
