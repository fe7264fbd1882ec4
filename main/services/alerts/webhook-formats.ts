/**
 * The three webhook formats as pure requests (method POST, URL, headers,
 * body), like Proxmox VE's own notification targets (proxmox-notify,
 * src/endpoints/gotify.rs and webhook.rs):
 *
 * - ntfy (docs.ntfy.sh/publish): POST {server}/{topic}, the message as the
 *   plain-text body, `Title`, `Priority` (1–5) and `Tags` headers; an access
 *   token as `Authorization: Bearer`.
 * - Gotify (gotify.net/api-docs, POST /message): POST {server}/message, the
 *   application token in the `X-Gotify-Key` header (as proxmox-notify sends
 *   it: never in the query string, where proxies log it), JSON
 *   {title, message, priority} on Gotify's 0–10 scale.
 * - generic: POST the JSON below to the URL as given; a token, if any, as
 *   `Authorization: Bearer`.
 *
 * The secret goes in exactly one header and nowhere else (not in the URL,
 * not in the body).
 */
import type { WebhookFormat } from '../../../shared/channels/alerts';
import { alertRuleTitle } from '../../../shared/domain/alert-rules';
import type { AlertRecord } from '../history/types';

/** What a webhook says: an alert raised or resolved, or the Send test button. */
export type WebhookMessage = { event: 'raised' | 'resolved'; alert: AlertRecord; clusterName: string } | { event: 'test' };

/** The generic format's body, documented in docs/user-guide.md ("Alerts and webhooks"). */
export interface GenericPayload {
  source: 'egress-desk';
  event: 'raised' | 'resolved' | 'test';
  alertId: number | null;
  rule: string | null;
  ruleTitle: string | null;
  clusterId: string | null;
  cluster: string | null;
  target: string | null;
  label: string | null;
  reason: string;
  hint: string;
  /** ISO 8601 times; null where not (yet) known. */
  raisedAt: string | null;
  resolvedAt: string | null;
  sentAt: string;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookTargetConfig {
  format: WebhookFormat;
  url: string;
  topic?: string;
}

const TEST_REASON = 'This is a test from Egress Desk: the webhook works.';
const TEST_HINT = 'Nothing to do. Alerts will arrive here like this one.';

export function ruleTitle(rule: string): string {
  return alertRuleTitle(rule);
}

export function titleOf(message: WebhookMessage): string {
  if (message.event === 'test') return 'Egress Desk: test';
  const prefix = message.event === 'raised' ? 'Alert' : 'Resolved';
  return `${prefix}: ${ruleTitle(message.alert.rule)}, ${message.alert.label}`;
}

/** The text ntfy and Gotify show, and the desktop notification's body. */
export function textOf(message: WebhookMessage): string {
  if (message.event === 'test') return `${TEST_REASON} ${TEST_HINT}`;
  const { alert, clusterName } = message;
  if (message.event === 'resolved') return `Resolved at ${iso(alert.resolvedAt)} (cluster ${clusterName}). It was: ${alert.reason}`;
  return `${alert.reason}\nWhat to do: ${alert.hint}\nCluster ${clusterName}, raised at ${iso(alert.raisedAt)}.`;
}

export function genericPayload(message: WebhookMessage, sentAt: number): GenericPayload {
  if (message.event === 'test') {
    return {
      source: 'egress-desk',
      event: 'test',
      alertId: null,
      rule: null,
      ruleTitle: null,
      clusterId: null,
      cluster: null,
      target: null,
      label: null,
      reason: TEST_REASON,
      hint: TEST_HINT,
      raisedAt: null,
      resolvedAt: null,
      sentAt: iso(sentAt),
    };
  }
  const { alert } = message;
  return {
    source: 'egress-desk',
    event: message.event,
    alertId: alert.id,
    rule: alert.rule,
    ruleTitle: ruleTitle(alert.rule),
    clusterId: alert.clusterId,
    cluster: message.clusterName,
    target: alert.target,
    label: alert.label,
    reason: alert.reason,
    hint: alert.hint,
    raisedAt: iso(alert.raisedAt),
    resolvedAt: alert.resolvedAt === undefined ? null : iso(alert.resolvedAt),
    sentAt: iso(sentAt),
  };
}

export function buildWebhookRequest(
  target: WebhookTargetConfig,
  secret: string | undefined,
  message: WebhookMessage,
  sentAt: number,
): WebhookRequest {
  const raised = message.event === 'raised';
  if (target.format === 'ntfy') {
    return {
      url: joinPath(target.url, encodeURIComponent(target.topic ?? '')),
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        title: headerText(titleOf(message)),
        // ntfy's scale: 5 max, 4 high, 3 default, 2 low (docs.ntfy.sh/publish/#message-priority).
        priority: raised ? '4' : '3',
        tags: message.event === 'test' ? 'test_tube' : raised ? 'warning' : 'white_check_mark',
        ...(secret ? { authorization: `Bearer ${secret}` } : {}),
      },
      body: textOf(message),
    };
  }
  if (target.format === 'gotify') {
    return {
      url: joinPath(target.url, 'message'),
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-gotify-key': secret } : {}) },
      // Gotify's clients treat 8 and above as high (a sound), 4–7 as normal, 1–3 as low.
      body: JSON.stringify({ title: titleOf(message), message: textOf(message), priority: raised ? 8 : message.event === 'test' ? 4 : 3 }),
    };
  }
  return {
    url: target.url,
    headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
    body: JSON.stringify(genericPayload(message, sentAt)),
  };
}

/** `https://ntfy.example/sub/` + `topic` → `https://ntfy.example/sub/topic` (a server behind a path prefix keeps it). */
function joinPath(server: string, segment: string): string {
  const url = new URL(server);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segment}`;
  url.search = '';
  return url.toString();
}

/** A header carries Latin-1 only: other text goes RFC 2047-encoded, which ntfy decodes (docs.ntfy.sh/publish). */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

function iso(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString();
}
