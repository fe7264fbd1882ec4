import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GUEST_AGENT_SCRIPT } from '../../../main/core/seed/guest-agent-script';
import { buildVendorData } from '../../../main/core/seed/vendor-data';
import { missing } from './debian-tools';

const configured = '#cloud-config\nntp:\n  enabled: true\n';

// cloud-init's own first step with vendor-data (cloudinit/user_data.py
// convert_string): multipart only when "mime-version:" is in the first 4096
// bytes, then Python's email parser; every leaf part with its type and payload.
// One Python run splits a list of documents (Python starts slowly).
const cloudInitSplit = `
import email, json, sys
def split(raw):
    if b"mime-version:" not in raw[:4096].lower():
        return None
    msg = email.message_from_string(raw.decode("utf-8"))
    return [{"type": p.get_content_type(), "body": p.get_payload(decode=True).decode("utf-8")}
            for p in msg.walk() if not p.is_multipart()]
print(json.dumps([split(doc.encode("utf-8")) for doc in json.load(sys.stdin)]))
`;

type Parts = { type: string; body: string }[] | null;

function splitLikeCloudInit(vendorData: string[]): Parts[] {
  return JSON.parse(execFileSync('python3', ['-c', cloudInitSplit], { input: JSON.stringify(vendorData), encoding: 'utf8' })) as Parts[];
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

  it('carries an ASCII document as plain text and any other as base64 UTF-8', () => {
    expect(buildVendorData(configured, true)).toContain(`\r\nContent-Type: text/plain\r\n\r\n${configured}\r\n--`);
    const accented = buildVendorData('#cloud-config\n# caf\u00e9\n', true);
    expect(accented).toContain('Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n');
    expect(accented).toContain(Buffer.from('#cloud-config\n# caf\u00e9\n').toString('base64'));
    expect(accented).toContain(`Content-Type: text/x-shellscript\r\n\r\n${GUEST_AGENT_SCRIPT}`);
  });

  it('is the same text for the same input, so a rebuilt seed is identical', () => {
    expect(buildVendorData(configured, true)).toBe(buildVendorData(configured, true));
    expect(buildVendorData(configured, true)).not.toBe(buildVendorData(configured + ' ', true));
  });

  const python = missing('python3');
  it.skipIf(python !== undefined)('splits, as cloud-init does, into the configured part then the script, each byte for byte', () => {
    const crlfAndEmoji = '#cloud-config\r\nwrite_files:\n  - content: "caf\u00e9 \u{1F600}"\n';
    const docs = [configured, crlfAndEmoji, 'no trailing newline'];
    expect(splitLikeCloudInit(docs.map((doc) => buildVendorData(doc, true)))).toEqual(
      docs.map((doc) => [
        { type: 'text/plain', body: doc },
        { type: 'text/x-shellscript', body: GUEST_AGENT_SCRIPT },
      ]),
    );
  });

  it.skipIf(python !== undefined)('is not taken for a multipart when it is the script alone or passed through', () => {
    expect(splitLikeCloudInit([buildVendorData('', true), buildVendorData(configured, false)])).toEqual([null, null]);
  });
});
