/**
 * The shapes a renderer (or an imported file) may send, refused at the
 * contract's edge: a URL carrying a user and password, a bridge or VLAN tag
 * that would inject options into net0, catalogue keys that name JavaScript's
 * own object members, and token secrets too short to be real.
 */
import { describe, expect, it } from 'vitest';
import { DoctorRunInput } from '../../../../shared/channels/doctor';
import { SaveProfileInput } from '../../../../shared/channels/profiles';
import { ProfileFields } from '../../../../shared/domain/profile';
import { plainProfile } from '../../../integration/services/profiles/helpers';

const problems = (input: unknown) => {
  const parsed = ProfileFields.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('ProfileFields', () => {
  it('accepts the plain profile', () => {
    expect(problems(plainProfile())).toEqual([]);
  });

  it.each(['https://root:hunter2@pve.example:8006', 'https://root@pve.example:8006', 'https://:pw@pve.example:8006'])(
    'refuses a URL with a user or password in it: %s',
    (url) => {
      const found = problems(plainProfile({ url }));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^url: .*user name or password/);
      // The refusal never repeats the password.
      expect(found[0]).not.toContain('hunter2');
    },
  );

  it.each(['vmbr0,firewall=0', 'vmbr0=1', 'vmbr0;x', 'vmbr0\nnet1', 'vmbr 0', '0vmbr', 'a'.repeat(16), '', 'vmbr0,tag=5'])(
    'refuses a bridge that is not a Linux bridge name: %j',
    (bridge) => {
      expect(problems(plainProfile({ bridge })).join('\n')).toMatch(/^bridge: /m);
    },
  );

  it.each(['vmbr0', 'vmbr4094', 'br_lan', 'vnet.10', 'a', 'x'.repeat(15)])('accepts the bridge %j', (bridge) => {
    expect(problems(plainProfile({ bridge }))).toEqual([]);
  });

  it.each([0, -1, 4095, 1.5])('refuses VLAN tag %d; 1 to 4094 only', (vlanTag) => {
    expect(problems(plainProfile({ vlanTag })).join('\n')).toMatch(/^vlanTag: /m);
  });

  it.each([1, 4094])('accepts VLAN tag %d', (vlanTag) => {
    expect(problems(plainProfile({ vlanTag }))).toEqual([]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'])(
    'refuses %j as a template or machine-type name, with a plain message',
    (key) => {
      // JSON.parse makes "__proto__" an own key, as an imported file or an IPC message would.
      const templates = JSON.parse(`{"${key}": {"vmid": 9000}}`) as ProfileFields['templates'];
      const machineTypes = JSON.parse(`{"${key}": {"cores": 1, "memoryMiB": 512}}`) as ProfileFields['machineTypes'];
      expect(problems(plainProfile({ templates }))).toEqual([`templates.${key}: "${key}" is a reserved name; choose another`]);
      expect(problems(plainProfile({ machineTypes }))).toEqual([`machineTypes.${key}: "${key}" is a reserved name; choose another`]);
    },
  );
});

describe('token secrets', () => {
  const uuid = '2f0e4c1a-7b3d-4e5f-9a8b-1c2d3e4f5a6b';

  it('a Proxmox secret (a UUID) is accepted by profiles.save and doctor.run', () => {
    expect(SaveProfileInput.safeParse({ profile: plainProfile(), secret: uuid }).success).toBe(true);
    expect(DoctorRunInput.safeParse({ url: 'https://pve:8006', tokenId: 'a@pve!b', secret: uuid }).success).toBe(true);
  });

  it.each(['Zq9', 'k3Y@7w', 'fifteen-chars-x'])('a secret too short to be real (%j) is refused in plain words', (secret) => {
    const save = SaveProfileInput.safeParse({ profile: plainProfile(), secret });
    const doctor = DoctorRunInput.safeParse({ url: 'https://pve:8006', tokenId: 'a@pve!b', secret });
    for (const parsed of [save, doctor]) {
      expect(parsed.success).toBe(false);
      const issue = parsed.error!.issues[0]!;
      expect(issue.path).toEqual(['secret']);
      expect(issue.message).toMatch(/too short.*36/);
      expect(issue.message).not.toContain(secret);
    }
  });
});

describe('the doctor', () => {
  it('refuses a URL with a password without quoting it back', async () => {
    const { runDoctor } = await import('../../../../main/services/doctor');
    const { createMemoryLogger } = await import('../../../../main/log/logger');
    const failure = (await runDoctor({ url: 'https://root:hunter2@127.0.0.1:9' }, { logger: createMemoryLogger() }).catch(
      (e: unknown) => e,
    )) as {
      kind: string;
      field: string;
      message: string;
    };
    expect(failure).toMatchObject({ kind: 'invalid-input', field: 'url' });
    expect(failure.message).toMatch(/user name or password/);
    expect(failure.message).not.toContain('hunter2');
  });
});
