/**
 * The inventory benchmarks need a big cluster answered quickly: 5,000 VMs
 * in /cluster/resources, and many requests at once, counted per route and
 * per node.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainVm, startSimulator, type Simulator } from '../../../main/simulator';
import { pve } from './raw';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001 });
  for (let i = 0; i < 5000; i++) sim.state.addVm('pv1-1', plainVm(10_000 + i, `vm-${i}`, i % 2 ? 'running' : 'stopped'));
});
afterAll(async () => sim.close());

it('lists 5,000 VMs in /cluster/resources quickly', async () => {
  await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm' } }); // warm the connection path
  const started = performance.now();
  const a = await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm' } });
  const ms = performance.now() - started;
  console.log(`/cluster/resources with ${(a.data as unknown[]).length} VMs: ${ms.toFixed(1)} ms, ${a.body.length} bytes`);
  expect((a.data as unknown[]).length).toBe(5004);
  expect(ms).toBeLessThan(2000); // ~170 ms warm on a dev machine; generous for loaded CI
});

it('answers 300 concurrent requests and counts them per route and node', async () => {
  sim.requests.clear();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => pve(sim, 'GET', `/nodes/pv1-1/qemu/${10_000 + i}/config`)));
  console.log(`300 concurrent config reads: ${(performance.now() - started).toFixed(1)} ms`);
  expect(answers.every((a) => a.status === 200)).toBe(true);
  expect(sim.requests.total).toBe(300);
  expect(sim.requests.byRoute()).toEqual({ 'GET /nodes/{node}/qemu/{vmid}/config': 300 });
  expect(sim.requests.byNode()).toEqual({ 'pv1-1': 300 });
  expect(sim.requests.count({ route: '/nodes/{node}/qemu/{vmid}/config', status: 200 })).toBe(300);
});
