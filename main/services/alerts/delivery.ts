/**
 * Where a raised or resolved alert goes: the desktop notification (the task
 * manager's Notifier port: a system notification in Electron, a toast in
 * browser mode) and every enabled webhook target. Each target has its own
 * queue, so a raise is posted before its resolve and a slow server delays
 * only itself; nothing here ever blocks or throws into the engine. A target
 * whose session-only token is gone (the app restarted) is skipped, with
 * that reason in the log; the Settings list says so. Each post's outcome
 * (arrived, or failed after its retries, in words) goes to `onOutcome`, so a
 * webhook that stopped delivering is shown, not only logged.
 */
import type { Dispatcher } from 'undici';
import type { WebhookDelivery } from '../../../shared/channels/alerts';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { Notifier } from '../../ports/notifier';
import type { AlertEvent } from './engine';
import { buildWebhookRequest, textOf, titleOf, type WebhookMessage } from './webhook-formats';
import { defaultSendPolicy, sendWebhook, type SendPolicy, type SendResult } from './webhook-sender';
import type { WebhookTargetStore } from './webhook-targets';

export interface AlertDeliveryOptions {
  notifier: Notifier;
  targets: WebhookTargetStore;
  dispatcher: Dispatcher;
  clusterName: (clusterId: string) => string;
  logger: Logger;
  now?: () => number;
  policy?: SendPolicy;
  /** Each alert post's outcome (test posts answer their caller instead). */
  onOutcome?: (delivery: WebhookDelivery) => void;
}

export interface AlertDelivery {
  deliver(event: AlertEvent): void;
  /** The Send test button: one post now, its outcome (or its classified error) to the caller. */
  test(targetId: string): Promise<SendResult>;
  /** Resolves when every queued post has ended (tests). */
  idle(): Promise<void>;
  /** Quitting: posts under way stop (no further retry), queued ones are dropped. */
  close(): Promise<void>;
}

export function createAlertDelivery(options: AlertDeliveryOptions): AlertDelivery {
  const log = options.logger.child({ part: 'alert-delivery' });
  const now = options.now ?? Date.now;
  const policy = options.policy ?? defaultSendPolicy;
  const queues = new Map<string, Promise<void>>();
  const closing = new AbortController();
  const outcome = (delivery: WebhookDelivery) => {
    if (closing.signal.aborted) return; // quitting: a post cut short is no failure to show
    try {
      options.onOutcome?.(delivery);
    } catch (err) {
      log.warn('alert delivery outcome not recorded', { error: (err as Error).message });
    }
  };

  async function post(targetId: string, message: WebhookMessage): Promise<SendResult> {
    const { target, secret } = await options.targets.resolve(targetId);
    return sendWebhook(buildWebhookRequest(target, secret, message, now()), options.dispatcher, policy, closing.signal);
  }

  function enqueue(targetId: string, message: WebhookMessage): void {
    const previous = queues.get(targetId) ?? Promise.resolve();
    const next = previous
      .then(() => post(targetId, message))
      .then(
        (result) => {
          log.info('alert webhook sent', { target: targetId, status: result.status, attempts: result.attempts });
          outcome({ targetId, ok: true, at: new Date(now()).toISOString(), message: `Delivered: the server answered ${result.status}.` });
        },
        (err: unknown) => {
          log.warn('alert webhook failed', { target: targetId, error: (err as Error).message });
          outcome({
            targetId,
            ok: false,
            at: new Date(now()).toISOString(),
            message: (err as Error).message,
            ...(err instanceof AppError ? { hint: err.hint } : {}),
          });
        },
      );
    queues.set(targetId, next);
    void next.finally(() => {
      if (queues.get(targetId) === next) queues.delete(targetId);
    });
  }

  return {
    deliver(event) {
      const message: WebhookMessage = { event: event.kind, alert: event.alert, clusterName: options.clusterName(event.alert.clusterId) };
      try {
        options.notifier.notify(titleOf(message), textOf(message), {
          taskId: '',
          tone: event.kind === 'raised' ? 'bad' : 'ok',
          // The window's notice follows this alert: acknowledged or resolved, it goes.
          alertId: event.alert.id,
        });
      } catch (err) {
        log.warn('alert notification failed', { error: (err as Error).message });
      }
      if (closing.signal.aborted) return;
      for (const target of options.targets.list()) {
        if (!target.enabled) continue;
        // A session token lost at a restart: skipped with the reason, never posted without its token.
        const skipped = options.targets.skipReason(target.id);
        if (skipped) log.warn('alert webhook skipped', { target: target.id, reason: skipped });
        else enqueue(target.id, message);
      }
    },
    test: (targetId) => post(targetId, { event: 'test' }),
    async idle() {
      while (queues.size > 0) await Promise.all([...queues.values()]);
    },
    async close() {
      closing.abort(new Error('the app is closing'));
      await this.idle();
    },
  };
}
