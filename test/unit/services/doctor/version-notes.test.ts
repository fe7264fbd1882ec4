import { describe, expect, it } from 'vitest';
import { parseRelease, versionNotes } from '../../../../main/services/doctor/version-notes';

describe('doctor: what the Proxmox VE release changes', () => {
  it.each([
    ['7.4-19', '7.4', true, /7\.4: disk resize finishes at once \(no task\); supported/],
    ['8.4.21', '8.4', true, /8\.4: disk resize runs as a task/],
    ['9.2.20', '9.2', true, /9\.2: storage listings may give an approximate size/],
    ['7.3-6', '7.3', false, /older than 7\.4/],
    ['6.4-15', '6.4', false, /older than 7\.4/],
    ['10.0.1', '10.0', true, /newer than the releases/],
  ])('%s', (version, release, supported, note) => {
    const n = versionNotes(version, release);
    expect(n.supported).toBe(supported);
    expect(n.notes.join('\n')).toMatch(note);
    expect(n.hint === '').toBe(supported);
  });

  it('7.4 reads the kernel from kversion; 8.1 on do not need to', () => {
    expect(versionNotes('7.4-19', '7.4').notes.join('\n')).toMatch(/kernel is read from its version text/);
    expect(versionNotes('8.1.4', '8.1').notes.join('\n')).not.toMatch(/kernel/);
  });

  it('reads the release from either field; an unreadable one is a warning, not a crash', () => {
    expect(parseRelease('7.4-19')).toEqual({ major: 7, minor: 4 });
    expect(parseRelease('whatever', '8.4')).toEqual({ major: 8, minor: 4 });
    expect(versionNotes('banana')).toMatchObject({ supported: false, release: undefined });
  });
});
