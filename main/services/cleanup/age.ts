/** Ages in plain words, for the reasons the cleanup gives. */
export function formatAge(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** The seed's age against the grace period: why it is kept, or undefined when it is old enough. */
export function ageReasonToKeep(ageSeconds: number | undefined, graceMinutes: number): string | undefined {
  if (ageSeconds === undefined) return 'Proxmox did not say when it was made, so its age is unknown.';
  if (ageSeconds < graceMinutes * 60) {
    return `It is ${formatAge(ageSeconds)} old; seeds younger than ${graceMinutes} min are kept, as a create may be about to use them.`;
  }
  return undefined;
}
