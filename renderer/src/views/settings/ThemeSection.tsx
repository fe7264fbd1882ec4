/** Light, dark, or follow the system; kept by main so it survives a restart. */
import { useUi, type ThemeChoice } from '../../stores/ui';

const choices: [ThemeChoice, string][] = [
  ['system', 'Follow the system'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

export function ThemeSection() {
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  return (
    <section aria-labelledby="settings-theme">
      <h2 id="settings-theme">Theme</h2>
      <div role="radiogroup" aria-labelledby="settings-theme" className="theme-choices">
        {choices.map(([value, label]) => (
          <label key={value} className="choice">
            <input type="radio" name="theme" checked={theme === value} onChange={() => setTheme(value)} />
            {label}
          </label>
        ))}
      </div>
    </section>
  );
}
