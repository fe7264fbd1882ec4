/**
 * Where a create of the chosen template can land, as main judges it
 * (`placement.landing`, issue 11): the form offers only those nodes, shows
 * the others disabled with main's reason, and says when a node is reached
 * by a clone on another node and a move. Nothing is judged here.
 */
import { useEffect, useState } from 'react';
import type { NodeLanding } from '../../../../shared/channels/placement';
import type { AppErrorValue } from '../../../../shared/errors';
import { useTasks } from '../../stores/tasks';

export type LandingCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'error'; error: AppErrorValue }
  | { state: 'ready'; nodes: NodeLanding[] };

/** Asks main once per cluster and template; a newer question makes an older answer moot. */
export function useLanding(clusterId: string | undefined, template: string): LandingCheck {
  const api = useTasks((s) => s.api);
  const [check, setCheck] = useState<{ key: string; check: LandingCheck }>({ key: '', check: { state: 'idle' } });
  const key = clusterId && template ? `${clusterId}\n${template}` : '';
  useEffect(() => {
    if (!api || !clusterId || !template) return;
    let current = true;
    setCheck({ key: `${clusterId}\n${template}`, check: { state: 'checking' } });
    void api.request['placement.landing']({ clusterId, template }).then((answer) => {
      if (!current) return;
      setCheck({
        key: `${clusterId}\n${template}`,
        check: answer.ok ? { state: 'ready', nodes: answer.value.nodes } : { state: 'error', error: answer.error },
      });
    });
    return () => {
      current = false;
    };
  }, [api, clusterId, template]);
  if (!key) return { state: 'idle' };
  return check.key === key ? check.check : { state: 'checking' };
}

/** The verdict for one node, once main has answered. */
export function landingOf(check: LandingCheck, node: string): NodeLanding | undefined {
  return check.state === 'ready' ? check.nodes.find((n) => n.node === node) : undefined;
}

/** An option's label: the node, and why it is not offered, or that a create there is moved after its clone. */
export function nodeLabel(node: string, down: boolean, landing: NodeLanding | undefined): string {
  if (landing && !landing.ok) return `${node}: ${landing.reason ?? 'a create cannot land here'}`;
  if (down) return `${node} (down)`;
  if (landing?.way === 'migrate' && landing.cloneNode) return `${node} (cloned on ${landing.cloneNode}, then moved)`;
  return node;
}

/** What the Node field's help adds for the chosen node (or for Automatic). */
export function landingHelp(check: LandingCheck, node: string): string {
  if (check.state === 'checking') return ' Checking where this template can be cloned…';
  if (check.state === 'error') return ` Where this template can be cloned could not be checked (${check.error.message}); main checks again on create.`;
  if (check.state !== 'ready') return '';
  const offered = check.nodes.filter((n) => n.ok);
  const refused = check.nodes.filter((n) => !n.ok);
  if (node === '') {
    const skipped = refused.length > 0 ? ` It skips ${refused.map((n) => n.node).join(', ')}, where a create of this template cannot land.` : '';
    return `${skipped}${offered.some((n) => n.way === 'migrate') ? ' It prefers nodes where the clone lands without a move.' : ''}`;
  }
  const chosen = landingOf(check, node);
  if (chosen?.ok && chosen.way === 'migrate' && chosen.note) return ` On ${node}: ${chosen.note}.`;
  if (chosen && !chosen.ok) return ` ${chosen.hint ?? ''}`;
  return '';
}

/** Why no node can be used, when main says none can take this template. */
export function noLandingProblem(check: LandingCheck): string | undefined {
  if (check.state !== 'ready' || check.nodes.length === 0 || check.nodes.some((n) => n.ok)) return undefined;
  const first = check.nodes.find((n) => n.hint)?.hint ?? '';
  return `No node can take a proxy from this template: ${check.nodes.map((n) => `${n.node}: ${n.reason ?? 'no'}`).join('; ')}. ${first}`.trim();
}
