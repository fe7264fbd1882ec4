import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GUEST_AGENT_SCRIPT } from '../../../main/core/seed/guest-agent-script';
import { buildVendorData } from '../../../main/core/seed/vendor-data';
import { missing } from './debian-tools';

const configured = '#cloud-config\nntp:\n  enabled: true\n';

// cloud-init's own first step with vendor-data (cloudinit/user_data.py
// convert_string): multipart only when "mime-version:" is in the first 4096
// bytes, then Python's email parser; every leaf part with its type and payload.
const cloudInitSplit = `
import email, json, sys
raw = sys.stdin.buffer.read()
if b"mime-version:" not in raw[:4096].lower():
    print(json.dumps(None)); sys.exit()
msg = email.message_from_string(raw.decode("utf-8"))
print(json.dumps([{"type": p.get_content_type(), "body": p.get_payload(decode=True).decode("utf-8")}
                  for p in msg.walk() if not p.is_multipart()]))
`;

function splitLikeCloudInit(vendorData: string): { type: string; body: string }[] | null {
  return JSON.parse(execFileSync('python3', ['-c', cloudInitSplit], { input: vendorData, encoding: 'utf8' })) as
    { type: string; body: string }[] | null;
}

describe('buildVendorData', () => {
  it.each([
    { why: 'agent on, nothing configured: the script alone', configured: '', agent: true, want: GUEST_AGENT_SCRIPT },
    { why: 'agent on, blank configured counts as nothing', configured: ' \n\t', agent: true, want: GUEST_AGENT_SCRIPT },
    { why: 'agent off, nothing configured: empty', configured: '', agent: false, want: '' },
    {
      why: 'agent off, configured passes through as is',
      configured: '#cloud-config\nntp:\n  enabled: true',
      agent: false,
      want: '#cloud-config\nntp:\n  enabled: true',
    },
  ])('$why', ({ configured, agent, want }) => {
    expect(buildVendorData(configured, agent)).toBe(want);
  });

  it('gives a shell script, not a cloud-config, so cloud-init never merges it under the user-data', () => {
    const script = buildVendorData('', true);
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain('qemu-guest-agent');
    expect(script).toContain('installGuestAgent: false');
  });

  it('joins configured data and the script as a multipart with MIME-Version first', () => {
    const got = buildVendorData(configured, true);
    expect(got.startsWith('MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="')).toBe(true);
    const boundary = /boundary="([^"]+)"/.exec(got)?.[1] ?? '';
    expect(boundary).toMatch(/^[0-9a-f]{60}$/);
    expect(got.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  });

  it('is the same text for the same input, so a rebuilt seed is identical', () => {
    expect(buildVendorData(configured, true)).toBe(buildVendorData(configured, true));
    expect(buildVendorData(configured, true)).not.toBe(buildVendorData(configured + ' ', true));
  });

  const python = missing('python3');
  it.skipIf(python !== undefined)('splits, as cloud-init does, into the configured part then the script, each byte for byte', () => {
    const crlfAndEmoji = '#cloud-config\r\nwrite_files:\n  - content: "caf\u00e9 \u{1F600}"\n';
    for (const doc of [configured, crlfAndEmoji, 'no trailing newline']) {
      expect(splitLikeCloudInit(buildVendorData(doc, true))).toEqual([
        { type: 'text/plain', body: doc },
        { type: 'text/x-shellscript', body: GUEST_AGENT_SCRIPT },
      ]);
    }
  });

  it.skipIf(python !== undefined)('is not taken for a multipart when it is the script alone or passed through', () => {
    expect(splitLikeCloudInit(buildVendorData('', true))).toBeNull();
    expect(splitLikeCloudInit(buildVendorData(configured, false))).toBeNull();
  });
});
