/** docs/core.md's example (scripts/core-example.ts) runs as documented. */
import { describe, expect, it } from 'vitest';
import { runExample } from '../../../scripts/core-example';

describe('the documented core example', () => {
  it('checks, creates, reads, lists and deletes a proxy on the simulator', async () => {
    const lines: string[] = [];
    await runExample((l) => lines.push(l));
    expect(lines[0]).toBe('check: pv1-1 Reachable');
    expect(lines).toContain('  8/8 wait-running');
    expect(lines.find((l) => l.startsWith('created '))).toMatch(/^created vms\/\d+\/proxy-example$/);
    expect(lines.find((l) => l.startsWith('get: '))).toMatch(/^get: running at \d+\.\d+\.\d+\.\d+$/);
    expect(lines.at(-1)).toMatch(/^deleted vms\/\d+\/proxy-example$/);
  });
});
