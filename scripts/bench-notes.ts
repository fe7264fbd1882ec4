/**
 * The prose of docs/performance.md that holds whatever the numbers (the
 * arithmetic behind the goals, the simulator's model behind the bulk
 * figures), built from the sources' constants; written by scripts/bench.ts.
 */
import { DEFAULT_PACE, DEFAULT_REQUESTS_PER_NODE } from '../main/core';
import { VERIFY_GAP_MS, VERIFY_PER_NODE } from '../main/services/inventory/memory';
import { defaultLimits } from '../main/services/tasks/queue/slots';
import { goodTemplate } from '../main/simulator/datasets';
import { DEFAULT_REQUEST_COST_MS, DEFAULT_WORKERS } from '../main/simulator/load';
import { DEFAULT_BANDWIDTH, DEFAULT_TASK_OVERHEAD_MS } from '../main/simulator/physics';

/** F21: the guest agent answers 50 s after start (main/simulator/index.ts `agentDelayMs` default; bench-bulk.ts uses the same). */
const AGENT_DELAY_MS = 50_000;

/** What holds whatever the numbers: the arithmetic behind the goals. */
export const READING = [
  `- **The limits.** The task manager runs at most ${defaultLimits.perNode} creates per node (Proxmox's own bulk-action default,`,
  `  \`max_workers\`), ${defaultLimits.clonesPerStorage} full clones per storage and ${defaultLimits.global} in all (main/services/tasks/slots.ts). The client puts at most`,
  `  ${DEFAULT_REQUESTS_PER_NODE} requests on the wire per node (main/core/pve/node-gate.ts).`,
  '- **One task watcher per node.** Task state comes from one `GET /nodes/{node}/tasks` per cycle per node',
  "  (main/core/provider/calls/task-watcher.ts), which answers for every task on that node, so a node's task-state requests",
  '  do not grow with the number of tasks; a status call is made only for a task the listing cannot tell about.',
  `- **The pace.** The client sends at most ${DEFAULT_PACE.requests} requests per node in any ${DEFAULT_PACE.perMs} ms window (main/core/pve/pace.ts; one per`,
  "  pveproxy worker per second): disk copies first (clone and migrate POSTs: a clone that waits holds its storage's",
  "  copy slot while the disk idles), then other writes, then an operation's reads (lookups, task listings, agent",
  "  reads), then the inventory's polls. In the app no send of a window is kept for writes (client-policy.ts: with",
  "  one kept, the task listings got one send in three while a bulk's writes filled the rest, and creates whose task",
  '  had ended waited seconds to be told). That is what holds the peak of 3 a second at the node; it is also what',
  '  sets the bulk wall. In the app (and so in this bench) it engages under load: from the moment two creates',
  '  overlap until the last has ended and 60 s more (the address reads of the boot). A lone create is never held:',
  '  its bursts of 4 or 5 requests in a second, with nothing else of ours on the node, cost 1.26× Proxmox time paced',
  '  against 1.09× unpaced (bench:core). Calls that name no node count against the node the URL reaches (learned from',
  '  `GET /cluster/status`, the entry with `local`), and Automatic placement puts that node last among equals (7/7/6).',
  "- **Where a create's requests go** (bench-bulk prints them per kind for the busiest node, before and after",
  "  Proxmox's part is done; `BENCH_TIMELINE=<node>` prints that node's requests and tasks in time order). A create",
  '  sends 5 writes (clone, upload, config, resize, start) and about 2.5 task listings (shared by the creates on the',
  '  node); after its start, one or two agent reads: a step (1 s) before the boot the inventory learned, then a second',
  '  later (inventory/runtime.ts). What it shares: the whole',
  "  cluster listing automatic placement read serves the creates' lookups for 10 s unless an operation on that name",
  "  ended since (main/core/provider/cluster/lookup.ts), and the clone gate's storage facts; each node's template config is",
  "  read once, by placement, for the bulk (template-reads.ts); one read of a storage's status serves the room checks",
  "  of the creates that follow on it for 30 s, each counting the others' growth (cluster/disk-room.ts: the later creates",
  '  of a node read no storage before their clone); the inventory lists the cluster for ended operations',
  '  at most once per 2 s (inventory/service.ts AFTER_OPERATION_GAP_MS). It no longer sends: `status/current` after',
  '  a start task that ended OK (qemu-server `vm_start_nolock` ends the task with QEMU running the guest), a read of',
  "  its own clone's config (unless net0 is rewritten: `clone_vm` renews the MAC), the inventory's mark read of a VM",
  '  it cloned (the mark it wrote is known), nor agent reads every 5 s from 40 s. From 16.3 requests per create to',
  '  about 9.5.',
  "- **The bulk met 1.15× in issue 11 (1.141) and is over issue 21's 1.10 today.** The floor is the disk: 7 clones of",
  "  ~420 MiB over one 450 MB/s SSD on the busiest node, then the last one's upload, resize and start, and the 50 s",
  "  boot (F21). What held the creates back was the node's request budget, not the disk (BENCH_TIMELINE showed the",
  "  disk idle for seconds): each create's seed goes up beside its clone, while the clone waits for its copy slot or",
  '  copies (main/core/provider/operations/seed-beside-clone.ts; nothing names the seed until the configure step), and',
  "  is looked at only with its clone's looks; the twenty lookups that queued at the node the URL reaches became one;",
  '  a clone waiting at the pace goes before other writes; a listing that just saw a task running counts as that',
  "  task's early look. Together 1.27× → 1.141×. Since issue 23 a create runs until its proxy has an address, and",
  "  the bulk measured 1.19-1.24× (2026-12-02, before the changes below): Proxmox's part of every create ended at",
  "  22.1-22.3 s, and the last address was read 0.8-8 s after the guest's agent could answer. Two changes since: the",
  "  later creates of a node no longer read the storage's status before their clone (it waited at the pace's 'read'",
  "  class behind the other creates' writes: 0.5 → 0.15 storage reads per create), and the inventory learns when an",
  '  agent could first answer (a miss a second before bounds it), asks a step before that, and an agent pass that',
  '  found nothing due arms again instead of waiting for the next listing (a read came up to 5 s late). Measured',
  "  1.137-1.175× in five runs (load 3-7): Proxmox's part done at 19.3-21.1 s, the last address 0.3-1.0 s after its",
  "  agent could answer. Still over 1.10: the busiest node's 7 creates need about 60 sends before the last start (35",
  "  writes, ~20 task listings, the template and storage reads) and the pace gives 3 per 1.05 s, so Proxmox's part",
  "  cannot end much before 20 s at today's request count; 1.10 needs the last start done by about 16.5 s, that is",
  "  at most about 46 sends: what is left is fewer task listings (about 20 for the node's 21 task ends). Giving",
  '  the task listings a place before the writes at the pace was tried and was worse (1.25-1.31×: listings got through',
  '  more often, 4.5-4.8 per create). The peak stays 3 a second at the pace; at load 6-7 one run counted 4 in one',
  "  1 s bucket at the bulk's start (a send left in the same window as the warm-up's last agent read, delayed",
  '  on the loaded loopback), never more than 2 copies on a storage.',
  '- **One create** (bench:core) has no pace contention: six creates on one client per repetition, the first cold, the',
  '  second and third learning (a model from the cold looks, 500 ms apart), the rest learned. Learned, a task is looked',
  '  at first at its expected end (the early look at 88 % goes once the model has seen the task twice and is sure to',
  "  within that margin), and the seed's upload beside the clone makes no looks of its own: 10 task-state requests per",
  '  create → about 4, and 1.06× → about 1.04× Proxmox time.',
  '- **The first look after a restart** (issue 27). A cold start reads every VM: its config for the mark and, for a',
  '  running proxy, its guest agent for the address (2,001 requests at 1,000 VMs). The inventory keeps what it learned',
  "  (marks, net0's MAC, addresses with the boot they belong to; no secret) in the data folder's `inventory/`, and a",
  '  restart gives it back to every VM the listing shows unchanged (VMID, name, node, tags, size; an address only for',
  '  the same boot), so the first refresh is the listing and the reads of what changed. As `/cluster/resources` has no',
  '  config digest, every kept mark is read again in the background at',
  `  ${VERIFY_PER_NODE} per node every ${VERIFY_GAP_MS / 1000} s while a window is shown (a twelfth of the pace of ${DEFAULT_PACE.requests} a second):`,
  "  that is the first minute's config reads, and a description edited by hand while the app was closed is corrected",
  '  within about half an hour at 1,000 VMs on two nodes, sooner where the cluster is smaller. Every write still reads',
  "  the VM's config and checks its mark first (main/services/inventory/memory.ts says why the key is safe).",
  '- **Renderer and startup** times are wall clock inside a headless Chromium sharing the CPUs with everything',
  '  else; the load average is printed beside each run and summarised above the table.',
];

/** The simulator's model, read from its sources, so the document states what the bulk figures assume. */
const template = goodTemplate();
const MB = 1_000_000;
const MiB = 1024 ** 2;
export const MODEL = [
  `- **Storage bandwidth** (main/simulator/physics.ts DEFAULT_BANDWIDTH, home-lab estimates): ${Object.entries(DEFAULT_BANDWIDTH)
    .map(([type, bps]) => `${type} ${bps / MB} MB/s`)
    .join(', ')}. Copies sharing a storage share its bandwidth max-min fairly; a local storage is one resource per node.`,
  `- **Task overhead besides copying** (DEFAULT_TASK_OVERHEAD_MS): ${Object.entries(DEFAULT_TASK_OVERHEAD_MS)
    .map(([kind, ms]) => `${kind} ${ms / 1000} s`)
    .join(', ')}. Resize and start are fixed 1 s tasks.`,
  `- **Template data** (main/simulator/datasets.ts goodTemplate): ${Object.entries(template.dataBytes ?? {})
    .map(([disk, bytes]) => `${disk} ${bytes >= MiB ? `${(bytes / MiB).toFixed(0)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`}`)
    .join(', ')} (a 3 GiB disk, thin); one full clone onto local-lvm: ${DEFAULT_TASK_OVERHEAD_MS.qmclone / 1000} s + ${(
    Object.values(template.dataBytes ?? {}).reduce((a, b) => a + b, 0) / DEFAULT_BANDWIDTH.lvmthin
  ).toFixed(2)} s of copy.`,
  `- **pveproxy** (main/simulator/load.ts): ${DEFAULT_WORKERS} workers per node (pve-manager pveproxy.pm \`max_workers => 3\`), each request holding one for ${DEFAULT_REQUEST_COST_MS} ms (an estimate), FIFO when all are busy; requests/s are counted in 1 s buckets of simulated time.`,
  `- **Guest agent**: answers ${AGENT_DELAY_MS / 1000} s after the start task ends (F21; the simulator's default \`agentDelayMs\`), so every create's address step waits that boot.`,
];
