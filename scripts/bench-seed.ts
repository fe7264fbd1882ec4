/**
 * How long building a seed takes, for the report and for spotting a
 * regression by eye: `npx tsx scripts/bench-seed.ts`. Never a timed test.
 */
import { buildSeedIso } from '../main/core';

const typical = `#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/squid.conf\n    content: |\n${'      http_access allow localnet\n'.repeat(40)}`;
const cases = [
  { label: 'typical (~1.4 KiB user-data, agent script)', userData: typical, vendorData: undefined },
  { label: 'typical + configured vendorData (multipart)', userData: typical, vendorData: '#cloud-config\nntp:\n  enabled: true\n' },
  { label: '3 MiB user-data', userData: 'x'.repeat(3 * 1024 * 1024), vendorData: undefined },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

for (const { label, userData, vendorData } of cases) {
  const runs: number[] = [];
  let size = 0;
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    size = buildSeedIso({ name: 'proxy-abc', userData, vendorData, installGuestAgent: true, now: new Date(0) }).length;
    runs.push(performance.now() - start);
  }
  console.log(
    `${label}: median ${median(runs).toFixed(3)} ms, max ${Math.max(...runs).toFixed(3)} ms over ${runs.length} builds, image ${size} bytes`,
  );
}
