/**
 * Starts the demo cluster at realistic speed for manual use:
 *   npx tsx main/simulator/cli.ts [port]
 * and prints what a client needs to connect, and which token can build a
 * template there (every node's `local` takes import content).
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
  'Build a template (Templates > Build a template): with the token above; local on every node takes import content.',
  '  The operator token lacks the builder\'s roles: the builder then lists the pveum commands that grant them.',
  'Ctrl-C stops it.',
];
process.stdout.write(`${lines.join('\n')}\n`);
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
