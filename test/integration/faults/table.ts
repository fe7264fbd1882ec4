/** Renders the fault matrix (matrix.ts) as the markdown of docs/reliability.md. Pure, so a test can compare. */
import { format, resolveConfig } from 'prettier';
import {
  crashSteps,
  dataFolderFaults,
  dayTwoAfterResume,
  dayTwoCrashSteps,
  dayTwoInjectedOn,
  dayTwoMatrix,
  dayTwoOperations,
  dayTwoTaskType,
  dataFolderSite,
  faults,
  injectedOn,
  matrix,
  matrixVersions,
  rotateAfterResume,
  rotateCrashSteps,
  operations,
  startFaults,
  startFaultSite,
  startMatrix,
  startPathLabel,
  startPaths,
  tableVersion,
  versionDifferences,
  type Expectation,
} from './matrix';

function cell(e: Expectation): string {
  switch (e.outcome) {
    case 'error':
      return `**${e.kind}**; ${e.message ? `message ~ \`/${e.message.source}/\`; ` : ''}hint ~ \`/${e.hint.source}/\``;
    case 'not-ready':
      return `not ready: **${e.reason}**; hint ~ \`/${e.hint.source}/\``;
    case 'cancelled':
      return `user cancels; message ~ \`/${e.hint.source}/\``;
    case 'ok':
      return `**ok**: ${e.note}`;
    case 'elsewhere':
      return `see the crash table: ${e.why}`;
    case 'n/a':
      return `n/a: ${e.why}`;
  }
}

const escape = (s: string) => s.replace(/\|/g, '\\|');

/** One version's counts: the cells its tests run (request faults, data folder), the crash table's rows, the cells not run. */
function versionCounts(): { request: number; dataFolder: number; crash: number; notRun: number } {
  const all = [
    ...operations.flatMap((op) => faults.map(({ id }) => ({ id, e: matrix[op][id] }))),
    ...dayTwoOperations.flatMap((op) => faults.map(({ id }) => ({ id, e: dayTwoMatrix[op][id] }))),
  ];
  const runnable = all.filter(({ e }) => e.outcome !== 'n/a' && e.outcome !== 'elsewhere');
  return {
    request: runnable.filter(({ id }) => !dataFolderFaults.has(id)).length,
    dataFolder: runnable.filter(({ id }) => dataFolderFaults.has(id)).length,
    crash: crashSteps.create.length + crashSteps.delete.length + Object.values(dayTwoCrashSteps).reduce((n, steps) => n + steps.length, 0) +
      rotateCrashSteps.length,
    notRun: all.length - runnable.length,
  };
}

function versionSummary(): string[] {
  const n = versionCounts();
  const differs = (v: (typeof matrixVersions)[number]) =>
    v === tableVersion
      ? 'the table above'
      : versionDifferences[v].length === 0
        ? 'no cell'
        : versionDifferences[v].map((d) => `${d.cells}: ${d.why}`).join('<br>');
  return [
    '## On each Proxmox VE version',
    '',
    `Every runnable cell and every row of the crash table runs on each version profile of the simulator (${matrixVersions.join(', ')};`,
    '`main/simulator/versions.ts`, docs/simulator.md "Versions"), each test named by its version. The verdicts, classes and hints',
    `are the same on all of them, so the table above, run on ${tableVersion}, is the table of each; what differs is the path some cells`,
    'take to it, which the tests assert per version. Cells not run are the `n/a` ones and the host-killed row the crash table',
    'stands for.',
    '',
    '| version | request-fault cells run | data-folder cells run | crash-table rows run | cells not run | takes another path than 9.2 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...matrixVersions.map((v) => `| ${v} | ${n.request} | ${n.dataFolder} | ${n.crash} | ${n.notRun} | ${escape(differs(v))} |`),
    '',
  ];
}

/** Issue 16: the day-two operations' cells, run as tasks (day-two-cells.ts). */
function dayTwoTable(): string[] {
  return [
    '## Day-two operations (issue 16)',
    '',
    'Start, shut down, stop, reboot, migrate, reconfigure and recreate run as the user starts them: a request to the task',
    'manager (`tasks.power`, `tasks.migrate`, `tasks.reconfigure`, `tasks.recreate`), then the task to its end, on a cluster',
    'of two nodes (the minimal one and a second like it, where a migrate goes). Each cell judges the refusal or the failed',
    "task's error class and hint (or the cancel's words), takes the fault away, then uses the task's Retry where it offers it",
    '(else asks again) and asserts the VM ended as the operation meant, once, and the cluster is clean. The migrate,',
    'reconfigure and recreate subjects are made by the core, so their seeds are real; the power subjects are planted.',
    '',
    'Request faults are injected on the request that changes the VM; task faults strike the task the operation waits on:',
    '',
    ...dayTwoOperations.map((op) => `- ${op}: ${dayTwoInjectedOn[op]}; task \`${dayTwoTaskType[op]}\``),
    '',
    `| fault | ${dayTwoOperations.join(' | ')} |`,
    `| --- | ${dayTwoOperations.map(() => '---').join(' | ')} |`,
    ...faults.map(({ id, label }) => `| ${label} | ${dayTwoOperations.map((op) => escape(cell(dayTwoMatrix[op][id]))).join(' | ')} |`),
    '',
    "Rotate credentials (issue 24, `rotate-credentials`) sends reconfigure's requests through the same core operation",
    "(stage-seed, replace-seed, Proxmox's reboot, wait-running), so its request and task faults are reconfigure's column; its",
    "own last step, the check with the new credentials, fails in words that keep both sets (Retry then commits:",
    '`test/integration/services/tasks/rotate-credentials.test.ts`), and each of its steps is in the crash table below.',
    '',
  ];
}

/** Issue 22: the data folder as the app finds it at start, on each path it starts by (app-start.test.ts). */
function startTable(): string[] {
  return [
    "## The data folder at the app's start (issue 22)",
    '',
    'Faults of the data folder the app meets as it starts, run by `test/integration/faults/app-start.test.ts` on each path it',
    'starts by:',
    '',
    ...startPaths.map((p) => `- ${p}: ${startPathLabel[p]}`),
    '',
    ...startFaults.map(({ id, label }) => `- ${label}: ${startFaultSite[id]}`),
    '',
    'Each cell starts the app on the fault, asserts what the user is told (over IPC, and for the process also what it',
    'prints), that nothing crashes and the app serves, then takes the fault away and asserts the app recovers.',
    '',
    `| fault | ${startPaths.join(' | ')} |`,
    `| --- | ${startPaths.map(() => '---').join(' | ')} |`,
    ...startFaults.map(({ id, label }) => `| ${label} | ${startPaths.map((p) => escape(cell(startMatrix[p][id]))).join(' | ')} |`),
    '',
  ];
}

export function renderReliability(): string {
  const lines = [
    '# Reliability: the fault matrix',
    '',
    '<!-- Generated by `npx tsx scripts/gen-reliability-table.ts` from test/integration/faults/matrix.ts; do not edit by hand. -->',
    '',
    'Every operation under every fault, run against the simulator by `test/integration/faults/*.test.ts`',
    `(\`npx vitest run --project node test/integration/faults\`) on each Proxmox VE version profile (${matrixVersions.join(', ')}; see`,
    '"On each Proxmox VE version" below). For each runnable cell the test asserts:',
    '',
    '- the error class the user sees (as it crosses IPC) and that its hint, the "what to do", matches the pattern below;',
    "  for `check`, the node's reason and the health view's hint for it;",
    '- the app still serves other requests with the same client once the fault is gone (a cluster call and a get of another VM);',
    '- the same operation, retried, succeeds and does its job;',
    '- the cluster then holds no VM without its mark, no half-made clone, no duplicate name and no seed without its VM.',
    '',
    'Request faults are injected on the route each operation is most exposed on:',
    '',
    ...operations.map((op) => `- ${op}: ${injectedOn[op]}`),
    '',
    "The client's request timeout is shortened to 600 ms and every task budget to 1.2 s, so hangs resolve fast.",
    '',
    'An answer over its size bound (issue 22, main/core/pve/answer-size.ts) announces 1 GiB and never ends: it is refused',
    'before a byte of it is read. One that announces nothing is read up to its route’s bound and refused there, the',
    'connection dropped, in test/integration/client/answer-size.test.ts (bytes the simulator wrote counted), where the',
    'request timeout does not cut it short.',
    '',
    "Data-folder faults strike the app's own disk, not Proxmox. They run in `test/integration/faults/data-folder.test.ts`",
    'with the task journal on a real small disk (a tmpfs the test mounts; where it cannot, the test is skipped and says why),',
    'and create, delete and cleanup run as the user starts them: as tasks.',
    '',
    ...(['diskFull', 'readOnly', 'corruptJournal'] as const).map(
      (id) => `- ${faults.find((f) => f.id === id)!.label}: ${dataFolderSite[id]}`,
    ),
    '',
    'For those cells the test also asserts that no Proxmox request leaves after the journal write that failed, or after the',
    "refusal (only a last read of a finished step's task log, for the log view, may), and that every step request of create and",
    'delete found its step journalled as running first; that a task the full disk stopped is still in the journal once,',
    'listed as interrupted by the restarted task manager, and that Resume finishes it; that a refused request, asked again',
    'once the folder is writable, succeeds; and, for the corrupt journal, that the unreadable lines are in',
    '`tasks.jsonl.corrupt` byte for byte, that the tasks list reports how many and where, and that the finished task beside',
    'them is still listed. A create or delete that succeeds despite the fault is checked for its job instead of being rerun.',
    '',
    `| fault | ${operations.join(' | ')} |`,
    `| --- | ${operations.map(() => '---').join(' | ')} |`,
    ...faults.map(({ id, label }) => `| ${label} | ${operations.map((op) => escape(cell(matrix[op][id]))).join(' | ')} |`),
    '',
    ...dayTwoTable(),
    ...startTable(),
    ...versionSummary(),
    '## The host process killed at each step',
    '',
    "`test/integration/faults/crash-steps.test.ts` holds each step's request in the simulator, runs the task manager in a child",
    'process, kills it with SIGKILL once the journal shows the step running, lets the held request land with nobody listening,',
    'then restarts the task manager on the same journal. The task must be listed as interrupted with Resume, and Resume must',
    'succeed and leave the cluster clean.',
    '',
    '| operation | step killed at | after Resume |',
    '| --- | --- | --- |',
    ...crashSteps.create.map((s) => `| create | ${s} | one running VM with the mark, its grown disk and its seed |`),
    ...crashSteps.delete.map((s) => `| delete | ${s} | the VM and its seed gone |`),
    ...dayTwoOperations.flatMap((op) => dayTwoCrashSteps[op].map((s) => `| ${op} | ${s} | ${dayTwoAfterResume[op]} |`)),
    ...rotateCrashSteps.map((s) => `| rotate credentials | ${s} | ${rotateAfterResume} |`),
    '',
    'The rotate rows (issue 24) run in `test/integration/faults/crash-rotate.test.ts`: the child starts the rotate of a proxy',
    'made here with credentials (its pending set sealed in the data folder both processes share); killed at the check, the',
    "child's check never answers. Resume builds the same seed bytes from the same pending set, and its check passes through",
    "the demo's stand-in for the guest, which reads the credentials from the seed the guest booted with.",
    '',
    'The day-two rows (issue 16) run in `test/integration/faults/crash-day-two.test.ts` the same way: the child process starts',
    'the request through the task manager (the VM planted, or made by the core so its seed can be rebuilt byte for byte), and',
    'after Resume the test also asserts one VM with the name and nothing done twice (one start request in all; one seed copy',
    "to the target). A reconfigure's rerun skips a disk an earlier run already grew; a recreate cut off after its create half",
    'finds the new VM by its new UID.',
    '',
  ];
  return lines.join('\n');
}

/** The document as committed: rendered, then laid out by the project's Prettier settings. */
export async function reliabilityDocument(path: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(renderReliability(), { ...options, filepath: path });
}
