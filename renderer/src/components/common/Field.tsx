/** A labelled form control with its problem, if any, read out with it. */
import { useId, type ReactElement, cloneElement } from 'react';

interface ControlProps {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export function Field({
  label,
  problem,
  help,
  children,
}: {
  label: string;
  problem?: string;
  help?: string;
  children: ReactElement<ControlProps>;
}) {
  const id = useId();
  const describedBy = [problem ? `${id}-problem` : '', help ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${problem ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy })}
      {help && (
        <span id={`${id}-help`} className="field-help">
          {help}
        </span>
      )}
      {problem && (
        <span id={`${id}-problem`} className="field-problem">
          {problem}
        </span>
      )}
    </div>
  );
}
