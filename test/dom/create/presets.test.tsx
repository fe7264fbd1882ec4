import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { presets } from '../../../renderer/src/views/create/presets';
import { yamlProblems } from '../../../shared/domain/user-data';

/** Where each preset's software is told its port: the line that makes it listen. */
const listenLine: Record<string, (port: number) => RegExp> = {
  squid: (p) => new RegExp(`^http_port ${p}$`, 'm'),
  tinyproxy: (p) => new RegExp(`^Port ${p}$`, 'm'),
  socks5: (p) => new RegExp(`^ExecStart=\\S*microsocks .*-p ${p}( |$)`, 'm'),
  dante: (p) => new RegExp(`^internal: 0\\.0\\.0\\.0 port = ${p}$`, 'm'),
};

interface CloudConfig {
  packages: string[];
  write_files: { path: string; content: string }[];
  runcmd: string[];
}

describe('cloud-init presets', () => {
  it('offers Squid, tinyproxy and two SOCKS5 proxies (microsocks, Dante)', () => {
    expect(presets.map((p) => p.id)).toEqual(['squid', 'tinyproxy', 'socks5', 'dante']);
    expect(presets.find((p) => p.id === 'socks5')?.protocol).toBe('socks5');
    expect(presets.find((p) => p.id === 'dante')?.protocol).toBe('socks5');
  });

  for (const preset of presets) {
    for (const port of [preset.defaultPort, 8080, 65_535]) {
      it(`${preset.id} parses as cloud-config YAML and listens on port ${port}`, () => {
        const text = preset.render(port);
        expect(text.startsWith('#cloud-config\n')).toBe(true);
        expect(yamlProblems(text)).toEqual([]);
        const doc = parse(text) as CloudConfig;
        expect(doc.packages.length).toBeGreaterThan(0);
        const configs = doc.write_files.map((f) => f.content).join('\n');
        expect(configs).toMatch(listenLine[preset.id]!(port));
        // The port is written once, in the listening line, never left at the default elsewhere.
        if (port !== preset.defaultPort) expect(configs).not.toContain(String(preset.defaultPort));
        expect(doc.runcmd.some((c) => c.includes('systemctl'))).toBe(true);
      });
    }
  }

  it('the YAML check points at the broken spot', () => {
    const problems = yamlProblems('#cloud-config\npackages:\n  - squid\n bad: [\n');
    expect(problems.some((p) => p.severity === 'error')).toBe(true);
    expect(problems[0]!.from).toBeGreaterThan(10);
  });
});
