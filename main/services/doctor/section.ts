/** Small builders shared by the doctor's steps. */
import type { SectionStatus } from '../../../shared/channels/doctor';

export interface SectionBase {
  status: SectionStatus;
  blocking: boolean;
  message: string;
  hint: string;
}

export function skipped(reason: string): SectionBase {
  return { status: 'skipped', blocking: false, message: `Not checked: ${reason}`, hint: 'Fix the step above, then run the check again.' };
}

/** A section that stops the run: the admin must act first. */
export function blocked(status: 'warn' | 'fail', message: string, hint: string): SectionBase {
  return { status, blocking: true, message, hint };
}

export function passed(status: 'ok' | 'warn', message: string, hint = ''): SectionBase {
  return { status, blocking: false, message, hint };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
