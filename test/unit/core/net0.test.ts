import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rewriteNet0 } from '../../../main/core/provider/rules/net0';

describe('rewriteNet0', () => {
  it.each([
    ['virtio=BC:24:11:48:11:46,bridge=vmbr0', undefined, 4, 'virtio=BC:24:11:48:11:46,bridge=vmbr0,tag=4'],
    ['virtio=BC:24:11:48:11:46,bridge=vmbr0', 'vmbr1', undefined, 'virtio=BC:24:11:48:11:46,bridge=vmbr1'],
    ['virtio=BC:24:11:48:11:46,bridge=vmbr0,tag=2,firewall=1', 'vmbr1', 7, 'virtio=BC:24:11:48:11:46,bridge=vmbr1,tag=7,firewall=1'],
    ['e1000=AA:BB:CC:DD:EE:FF,firewall=1,mtu=1400', 'vmbr2', 10, 'e1000=AA:BB:CC:DD:EE:FF,firewall=1,mtu=1400,bridge=vmbr2,tag=10'],
    ['virtio=BC:24:11:48:11:46,bridge=vmbr0', undefined, undefined, 'virtio=BC:24:11:48:11:46,bridge=vmbr0'],
  ] as const)('%s with bridge %s tag %s', (net0, bridge, tag, want) => {
    expect(rewriteNet0(net0, bridge, tag)).toBe(want);
  });

  it('keeps every other option in order', () => {
    const option = fc.tuple(
      fc.constantFrom('virtio', 'firewall', 'mtu', 'queues', 'rate', 'link_down'),
      fc.stringMatching(/^[A-Za-z0-9:]{1,8}$/),
    );
    fc.assert(
      fc.property(fc.uniqueArray(option, { selector: (o) => o[0], minLength: 1 }), fc.integer({ min: 1, max: 4094 }), (options, tag) => {
        const net0 = options.map(([k, v]) => `${k}=${v}`).join(',');
        const out = rewriteNet0(net0, 'vmbr9', tag);
        expect(out).toBe(`${net0},bridge=vmbr9,tag=${tag}`);
      }),
    );
  });
});
