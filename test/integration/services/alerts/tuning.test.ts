/**
 * Alerts you can tune (issue 23) through the alert service, over the real
 * history database in memory, a real data folder and a webhook receiver on
 * 127.0.0.1: a snooze acknowledges the target's open alert and keeps it
 * quiet, and lives in alert-tuning.json (0600) across a restart; overrides
 * and hold-downs are saved the same way; a webhook that refuses an alert is
 * shown as a failed delivery (`alert.delivery`, and on the target's row),
 * not only logged; a broken tuning file is set aside, not fatal.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AlertView, WebhookDelivery } from '../../../../shared/channels/alerts';
import { defaultSettings, type AppSettings } from '../../../../shared/domain/profile';
import { createEventBus } from '../../../../main/ipc/event-bus';
import { createLogger } from '../../../../main/log/logger';
import { createAlertService, type AlertService } from '../../../../main/services/alerts/service';
import { ALERT_TUNING_FILE } from '../../../../main/services/alerts/tuning-store';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { CheckRecord, HistoryDatabase } from '../../../../main/services/history/types';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { startWebhookReceiver, type WebhookReceiver } from '../../../support/webhook-receiver';

const quiet = createLogger({ sinks: [] });
let clock = Date.UTC(2026, 11, 2, 1, 0, 0);
let dataDir: string;
let receiver: WebhookReceiver;
let history: HistoryDatabase;
const events: { name: string; payload: unknown }[] = [];
const open: AlertService[] = [];
const proxy = { clusterId: 'c1', vmid: 105, name: 'egress-a', node: 'pve1' };
const failed = (): CheckRecord => ({
  clusterId: 'c1',
  vmid: 105,
  at: clock,
  ok: false,
  origin: 'scheduled',
  stage: 'connect',
  problem: 'refused',
});

/** Each service's bus: a check result reaches the alerts as main's own message, as the checks service hands it. */
const buses = new Map<AlertService, ReturnType<typeof createEventBus>>();
const observe = (s: AlertService, record: CheckRecord) => buses.get(s)!.main.emit({ name: 'checks.result', payload: record });

function service(): AlertService {
  let settings: AppSettings = { ...defaultSettings };
  const bus = createEventBus(quiet);
  bus.subscribe((name, payload) => events.push({ name, payload }));
  const s = createAlertService({
    history,
    bus,
    directory: new MutableClusterDirectory(),
    inventorySnapshot: () => ({ revision: 0, clusters: [] }),
    inventoryVm: (clusterId, vmid) => ({ ...proxy, clusterId, vmid, state: 'running', status: 'running', owner: 'marked', tags: [] }),
    healthSnapshot: () => ({ clusters: [] }),
    settings: () => settings,
    updateSettings: (patch) => (settings = { ...settings, ...patch }),
    notifier: createRecordingNotifier(),
    vault: createMemoryVault(),
    dataDir,
    logger: quiet,
    now: () => clock,
    tickMs: 3_600_000,
    sendPolicy: { ...defaultSendPolicy, timeoutMs: 5_000, sleep: async () => undefined },
  });
  s.start();
  buses.set(s, bus);
  open.push(s);
  return s;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'alert-tuning-'));
  receiver = await startWebhookReceiver();
  history = openHistoryDatabase({ file: ':memory:', logger: quiet, now: () => clock });
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});
afterAll(async () => {
  history.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('alert tuning in the service', () => {
  it('a snooze acknowledges the open alert, keeps the target quiet, and survives a restart in alert-tuning.json', async () => {
    const s = service();
    observe(s, failed());
    observe(s, failed());
    const [alert] = history.openAlerts();
    expect(alert?.rule).toBe('egress-failing');
    s.snooze({ clusterId: 'c1', target: 'vm:105', label: 'proxy egress-a (105)', minutes: 60 });
    expect(history.openAlerts()[0]?.acknowledgedAt).toBe(clock);
    expect(events.filter((e) => e.name === 'alert.acknowledged').map((e) => (e.payload as AlertView).id)).toEqual([alert!.id]);
    const path = join(dataDir, ALERT_TUNING_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).tuning.snoozes).toEqual([
      { clusterId: 'c1', target: 'vm:105', label: 'proxy egress-a (105)', until: new Date(clock + 3_600_000).toISOString() },
    ]);
    s.setTuning({
      holdDownMinutes: { 'proxy-not-running': 15 },
      overrides: [{ clusterId: 'c1', target: 'vm:106', label: 'proxy egress-b (106)', disabled: ['egress-failing'] }],
    });
    await s.close();

    const again = service();
    expect(again.tuning()).toEqual({
      holdDownMinutes: { 'proxy-not-running': 15 },
      overrides: [{ clusterId: 'c1', target: 'vm:106', label: 'proxy egress-b (106)', disabled: ['egress-failing'] }],
      snoozes: [{ clusterId: 'c1', target: 'vm:105', label: 'proxy egress-a (105)', until: new Date(clock + 3_600_000).toISOString() }],
    });
    // The snooze ended: the lists leave it out.
    clock += 3_600_000;
    expect(again.tuning().snoozes).toEqual([]);
  });

  it('a webhook that refuses an alert is a failed delivery, in words, on the event and on the target', async () => {
    const s = service();
    const target = await s.targets.save({ name: 'hook', format: 'generic', url: `${receiver.url}/hook`, enabled: true });
    receiver.answer(403, 403, 403, 403);
    observe(s, { ...failed(), vmid: 107 });
    observe(s, { ...failed(), vmid: 107 });
    await s.delivery.idle();
    const delivery = events.filter((e) => e.name === 'alert.delivery').map((e) => e.payload as WebhookDelivery);
    expect(delivery).toHaveLength(1);
    expect(delivery[0]).toMatchObject({ targetId: target.id, ok: false });
    expect(delivery[0]!.message).toMatch(/403/);
    expect(s.targetViews().find((t) => t.id === target.id)?.lastDelivery).toEqual(delivery[0]);
  });

  it('a broken tuning file is set aside: the app starts untuned', () => {
    writeFileSync(join(dataDir, ALERT_TUNING_FILE), '{"version":1,"tuning":{"snoozes":"nope"}}');
    expect(service().tuning()).toEqual({ holdDownMinutes: {}, overrides: [], snoozes: [] });
  });
});
