/**
 * The grace period of one scan: seeds and VMs younger than this are kept,
 * as a create may be about to use them. Blank uses the app's setting;
 * the value is checked with the channel's own schema.
 */
import { useState } from 'react';
import { cleanupChannels } from '../../../../shared/channels/cleanup';
import { useCleanup } from '../../stores/cleanup';
import { useSettings } from '../../stores/settings';

const graceSchema = cleanupChannels['cleanup.scan'].input.shape.graceMinutes.unwrap();

export function GraceInput() {
  const setGrace = useCleanup((s) => s.setGrace);
  // Blank uses the app's setting: the field shows that number, not a word standing in for it.
  const setting = useSettings((s) => s.settings?.cleanupGraceMinutes);
  const [text, setText] = useState('');
  const parsed = text.trim() === '' ? undefined : graceSchema.safeParse(Number(text));
  const problem =
    parsed && !parsed.success
      ? `${graceSchema.minValue} to ${graceSchema.maxValue} minutes; the app's setting is used meanwhile`
      : undefined;
  return (
    <label
      className="inline-label"
      title={`Seeds and VMs younger than this are kept. Blank: the app's setting${setting !== undefined ? `, ${setting} minutes` : ''} (Settings → General).`}
    >
      Keep younger than
      <input
        type="number"
        min={0}
        size={5}
        className="grace-input"
        value={text}
        placeholder={setting !== undefined ? String(setting) : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'grace-problem' : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const r = e.target.value.trim() === '' ? undefined : graceSchema.safeParse(Number(e.target.value));
          setGrace(r?.success ? r.data : undefined);
        }}
      />
      minutes
      {problem && (
        <span id="grace-problem" className="field-problem">
          {problem}
        </span>
      )}
    </label>
  );
}
