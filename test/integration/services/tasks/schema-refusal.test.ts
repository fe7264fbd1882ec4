/**
 * Issue 25 item 1: main checks a cloud-config against cloud-init's own
 * schema before any task and any request: a typo inside a module is refused
 * at its line with the schema's words in create, reconfigure and recreate;
 * a top-level key no module reads is only a warning (cloud-init boots past
 * it), so it is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../main/errors/app-error';
import { madeHere, SENTINEL, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const TYPO = '#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/conf.d/egress.conf\n    contnet: "http_port 3128"\n';

async function refused(work: Promise<unknown>): Promise<AppError> {
  const e = await work.catch((x: unknown) => x);
  if (!(e instanceof AppError)) throw new Error(`expected a refusal, got ${JSON.stringify(e)}`);
  return e;
}

describe("main refuses a cloud-config cloud-init's schema refuses", () => {
  it('a key typed wrong inside write_files is refused at line 5 in create, reconfigure and recreate, before any request', async () => {
    env = await startEnv({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0 });
    const vmid = await madeHere(env, 'sc-typo', '#cloud-config\nhostname: sc-typo\n');
    const since = env.t.sim.requests.records.length;
    const tasksBefore = env.manager.list().length;
    const target = { vmid, name: 'sc-typo' };
    const refusals = [
      await refused(
        env.manager.createProxies({ clusterId: 'sim', node: 'pv1-1', template: 't9001', machineType: 'small', count: 1, cloudInit: TYPO }),
      ),
      await refused(env.manager.reconfigure({ clusterId: 'sim', targets: [target], cloudInit: TYPO })),
      await refused(env.manager.recreate({ clusterId: 'sim', targets: [{ ...target, cloudInit: TYPO }] })),
    ];
    for (const r of refusals) {
      expect(r).toMatchObject({ kind: 'invalid-input', field: 'cloudInit' });
      expect(r.message).toContain(
        "does not match cloud-init's schema at line 5: “contnet” is not a key cloud-init knows in “write_files.0”",
      );
      expect(r.message).toMatch(/Nothing was (changed|recreated|created)\.$/);
      expect(r.hint).toMatch(/Correct that line/);
    }
    expect(env.t.sim.requests.records.slice(since).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(env.manager.list().length).toBe(tasksBefore);
  });

  it('the refusal names keys, never a value: a password in the document stays out of the words', async () => {
    env = await startEnv({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0 });
    const withSecret = `#cloud-config\nchpasswd:\n  expire: "${SENTINEL}"\nusers:\n  - name: ops\n    passwd: "${SENTINEL}"\n    sudoo: "${SENTINEL}"\n`;
    const r = await refused(
      env.manager.createProxies({
        clusterId: 'sim',
        node: 'pv1-1',
        template: 't9001',
        machineType: 'small',
        count: 1,
        cloudInit: withSecret,
      }),
    );
    expect(r.message).toContain('at line 3: “chpasswd.expire” must be true or false');
    expect(`${r.message} ${r.hint}`).not.toContain(SENTINEL);
  });

  it('a top-level key no module reads is not refused: the create goes ahead', async () => {
    env = await startEnv({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0 });
    const { taskIds } = await env.manager.createProxies({
      clusterId: 'sim',
      node: 'pv1-1',
      template: 't9001',
      machineType: 'small',
      count: 1,
      cloudInit: '#cloud-config\npackges: [squid]\n',
    });
    expect(taskIds.length).toBe(1);
  });
});
