/**
 * Issue 24: the proxy's network in Create (and Reconfigure): the bridge, from
 * what the node really has (main's `network.bridges`), the VLAN tag, and DHCP
 * or a static IPv4/IPv6 address, gateway and name servers. Folded by default
 * under a summary that says what the proxy gets; every field shows the shared
 * rule's words (network-draft.ts) and main's notes (a token that sees no
 * bridge).
 */
import { useEffect, useState } from 'react';
import type { NodeBridges } from '../../../../shared/channels/network';
import { Field } from '../../components/common/Field';
import { bridgeLabel, commonBridges, type BridgesRead, type NetworkDraft, type NetworkFieldsState } from './network-draft';
import './network.css';

export interface NetworkFieldsProps extends NetworkFieldsState {
  onChange: (patch: Partial<NetworkDraft>) => void;
  /** False in Reconfigure: only the bridge and VLAN move (a static address is a create's). */
  withAddresses?: boolean;
  /** Open from the start (Reconfigure shows it once asked for). */
  open?: boolean;
}

function defaultsOf(read: BridgesRead): Pick<NodeBridges, 'profileBridge' | 'profileVlanTag'> {
  return read.state === 'ready' ? (read.lists[0] ?? {}) : {};
}

export function summaryOf(draft: NetworkDraft, read: BridgesRead): string {
  const d = defaultsOf(read);
  const bridge = draft.bridge || d.profileBridge || 'the template’s bridge';
  const vlan =
    draft.vlan.trim().toLowerCase() === 'none'
      ? 'no VLAN'
      : draft.vlan.trim()
        ? `VLAN ${draft.vlan.trim()}`
        : d.profileVlanTag
          ? `VLAN ${d.profileVlanTag}`
          : 'no VLAN';
  const address = draft.mode === 'static' ? [draft.ipv4.trim(), draft.ipv6.trim()].filter(Boolean).join(', ') || 'static address' : 'DHCP';
  return `${bridge}, ${vlan}, ${address}`;
}

export function NetworkFields({ draft, problems, read, where, onChange, withAddresses = true, open }: NetworkFieldsProps) {
  const bridges = commonBridges(read) ?? [];
  const d = defaultsOf(read);
  const notes = read.state === 'ready' ? [...new Set(read.lists.flatMap((l) => l.notes))] : [];
  const chosen = bridges.find((b) => b.name === draft.bridge);
  const anyProblem = Object.keys(problems).length > 0;
  // Opened by the user (or by a problem to show), it stays open until the user folds it.
  const [expanded, setExpanded] = useState(open ?? false);
  useEffect(() => {
    if (anyProblem) setExpanded(true);
  }, [anyProblem]);
  const vlanHelp = `1–4094, or "none". Empty: ${d.profileVlanTag ? `the profile’s VLAN ${d.profileVlanTag}` : 'no tag (the template’s)'}.${
    chosen && !chosen.vlanAware && draft.vlan.trim() && draft.vlan.trim().toLowerCase() !== 'none'
      ? ` ${chosen.name} is not VLAN-aware: the tag may not reach the network.`
      : ''
  }`;
  return (
    <details className="network-fields" open={expanded} onToggle={(e) => setExpanded(e.currentTarget.open)}>
      <summary>
        Network: <span className="muted">{summaryOf(draft, read)}</span>
      </summary>
      {read.state === 'error' && (
        <p className="network-note">
          The bridges could not be read ({read.error.message}) {read.error.hint} Without a choice the proxy gets the profile’s default; main
          checks the bridge again on create.
        </p>
      )}
      {notes.map((n) => (
        <p key={n} className="network-note" role="note">
          {n}
        </p>
      ))}
      <div className="form-grid">
        <Field
          label="Bridge"
          problem={problems.bridge}
          help={
            read.state === 'reading' ? 'Reading the bridges…' : `The bridges, OVS bridges and SDN vnets of ${where} this token can see.`
          }
        >
          <select value={draft.bridge} onChange={(e) => onChange({ bridge: e.target.value })}>
            <option value="">{d.profileBridge ? `Profile default (${d.profileBridge})` : 'Template’s own'}</option>
            {bridges.map((b) => (
              <option key={b.name} value={b.name}>
                {bridgeLabel(b)}
              </option>
            ))}
            {draft.bridge !== '' && !chosen && <option value={draft.bridge}>{draft.bridge} (not on this node)</option>}
          </select>
        </Field>
        <Field label="VLAN tag" problem={problems.vlanTag} help={vlanHelp}>
          <input
            value={draft.vlan}
            inputMode="numeric"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => onChange({ vlan: e.target.value })}
          />
        </Field>
        {withAddresses && (
          <Field label="Addresses" help="DHCP, or a static address written into the seed’s network-config.">
            <select value={draft.mode} onChange={(e) => onChange({ mode: e.target.value === 'static' ? 'static' : 'dhcp' })}>
              <option value="dhcp">DHCP</option>
              <option value="static">Static</option>
            </select>
          </Field>
        )}
        {withAddresses && draft.mode === 'static' && (
          <>
            <Field label="IPv4 address" problem={problems['ipv4.address']} help="With its prefix, like 192.168.10.20/24.">
              <input value={draft.ipv4} spellCheck={false} autoComplete="off" onChange={(e) => onChange({ ipv4: e.target.value })} />
            </Field>
            <Field label="IPv4 gateway" problem={problems['ipv4.gateway']}>
              <input
                value={draft.gateway4}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => onChange({ gateway4: e.target.value })}
              />
            </Field>
            <Field label="IPv6 address" problem={problems['ipv6.address']} help="With its prefix, like 2001:db8::20/64.">
              <input value={draft.ipv6} spellCheck={false} autoComplete="off" onChange={(e) => onChange({ ipv6: e.target.value })} />
            </Field>
            <Field label="IPv6 gateway" problem={problems['ipv6.gateway']}>
              <input
                value={draft.gateway6}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => onChange({ gateway6: e.target.value })}
              />
            </Field>
            <Field label="Name servers" problem={problems.dns} help="Up to 3 addresses, separated by commas.">
              <input value={draft.dns} spellCheck={false} autoComplete="off" onChange={(e) => onChange({ dns: e.target.value })} />
            </Field>
          </>
        )}
      </div>
    </details>
  );
}
