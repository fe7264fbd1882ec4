/**
 * Starts the demo cluster at realistic speed for manual use:
 *   npx tsx main/simulator/cli.ts [port]
 * and prints what a client needs to connect.
 */
import { startSimulator } from './index';

const port = Number(process.argv[2] ?? 8006);
const sim = await startSimulator({ dataset: 'demo', timeScale: 1, port });
const admin = sim.tokens.admin!;
const lines = [
  `Proxmox VE simulator (demo cluster) at ${sim.url}`,
  `  token id:    ${admin.tokenId}`,
  `  secret:      ${admin.secret}`,
  `  fingerprint: ${sim.fingerprint}`,
  `  names:       ${sim.sans.join(', ')}`,
  `  operator:    ${sim.tokens.operator!.tokenId}=${sim.tokens.operator!.secret}`,
  'Ctrl-C stops it.',
];
process.stdout.write(`${lines.join('\n')}\n`);
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
