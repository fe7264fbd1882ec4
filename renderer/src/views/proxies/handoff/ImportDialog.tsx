/**
 * Issue 26, the other way: Take in manifests… pastes (or opens, one file or
 * a bundle's several, read as one text) YAML holding the
 * Kubernetes operator's Proxy objects; main reads and checks them against the
 * chosen cluster's catalogue (handoff.import with create false), says every
 * misfit in words, and on Create makes each as the app's own proxy with the
 * same name, node, template, machine type and cloud-init (one task each).
 * A providers-config entry in the text is offered as a new cluster profile
 * (ProfileOffers.tsx).
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { MANIFESTS_MAX_CHARS, type HandoffImportResult } from '../../../../../shared/channels/handoff';
import type { AppErrorValue } from '../../../../../shared/errors';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { Field } from '../../../components/common/Field';
import { useProfiles } from '../../../stores/profiles';
import { requestImport, useImportDialog } from './handoff-store';
import { ProfileOffers } from './ProfileOffers';

export function ImportDialog() {
  const close = useImportDialog((s) => s.close);
  const profiles = useProfiles((s) => s.list?.profiles) ?? [];
  const [clusterId, setClusterId] = useState(profiles[0]?.id ?? '');
  const [yaml, setYaml] = useState('');
  const [answer, setAnswer] = useState<{ value?: HandoffImportResult; error?: AppErrorValue; made?: boolean }>();
  const picker = useRef<HTMLInputElement>(null);
  const [opened, setOpened] = useState<{ text?: string; problem?: string }>();
  const take = (text: string) => {
    setYaml(text);
    setAnswer(undefined);
  };
  // Several files (a bundle's proxies/*.yaml) are read as one text, a YAML document each.
  const openFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    if (files.length === 0) return;
    try {
      const texts = await Promise.all(files.map((f) => f.text()));
      const text = texts.map((t) => t.trimEnd()).join('\n---\n');
      if (text.length > MANIFESTS_MAX_CHARS) {
        setOpened({ problem: `${files.length === 1 ? 'That file holds' : 'Those files hold'} more than 1 MiB of text, more than is taken at once: open fewer files.` });
        return;
      }
      take(`${text}\n`);
      setOpened({ text: `Read ${files.map((f) => f.name).join(', ')}.` });
    } catch {
      setOpened({ problem: 'The file could not be read: check that it is a text file you may read, and open it again.' });
    }
  };
  const ask = async (create: boolean) => {
    const a = await requestImport({ clusterId, yaml, create });
    setAnswer(a.ok ? { value: a.value, made: create && a.value.taskIds.length > 0 } : { error: a.error });
  };
  const r = answer?.value;
  const fits = r && r.problems.length === 0 && r.proxies.length > 0;
  return (
    <Dialog
      title="Take in manifests"
      size="wide"
      onClose={close}
      footer={
        <>
          <button type="button" disabled={!yaml.trim() || !clusterId} onClick={() => void ask(false)}>
            Check
          </button>
          <button type="button" className="primary" disabled={!fits || answer?.made} onClick={() => void ask(true)}>
            Create {r && fits ? `${r.proxies.length} ${r.proxies.length === 1 ? 'proxy' : 'proxies'}` : ''}
          </button>
          <button type="button" onClick={close}>
            Close
          </button>
        </>
      }
    >
      <p className="muted">
        Paste the Kubernetes operator’s Proxy objects, or open their files (a bundle’s several at once). Each becomes this app’s own proxy, with the same name, placement and cloud-init. A
        providers-config entry pasted along can become a new cluster.
      </p>
      <div className="handoff-form">
        <Field label="Cluster">
          <select value={clusterId} onChange={(e) => setClusterId(e.target.value)}>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Manifests (YAML)">
          <textarea
            data-autofocus
            rows={10}
            value={yaml}
            onChange={(e) => {
              take(e.target.value);
              setOpened(undefined);
            }}
            spellCheck={false}
            className="handoff-yaml"
          />
        </Field>
        <div className="handoff-open">
          <button type="button" onClick={() => picker.current?.click()}>
            Open files…
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            accept=".yaml,.yml,.json,application/yaml,text/yaml"
            hidden
            aria-label="Manifest files"
            onChange={(e) => void openFiles(e)}
          />
          {opened?.text && <span className="muted">{opened.text}</span>}
          {opened?.problem && <span role="alert">{opened.problem}</span>}
        </div>
      </div>
      {answer?.error && <ErrorNotice error={answer.error} title="The manifests could not be taken in" />}
      {r && r.problems.length > 0 && (
        <section role="alert" aria-label="What cannot be taken" className="handoff-refusals">
          <h3>Nothing is made while any of this stands</h3>
          <ul>
            {r.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </section>
      )}
      {r && r.proxies.length > 0 && (
        <section aria-label="Proxies found" className="handoff-files">
          <h3>Proxies found</h3>
          <ul>
            {r.proxies.map((p) => (
              <li key={p.name}>
                <code>{p.name}</code>{' '}
                <span className="muted">{[p.node ?? 'any node', p.template, p.machineType, `port ${p.port}`].join(', ')}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {r && <ProfileOffers offers={r.offers} onLeave={close} />}
      {answer?.made && (
        <p role="status">
          Creating {r?.taskIds.length} {r?.taskIds.length === 1 ? 'proxy' : 'proxies'}: see Tasks.
        </p>
      )}
    </Dialog>
  );
}

export function ImportDialogHost() {
  const open = useImportDialog((s) => s.open);
  return open ? <ImportDialog /> : null;
}
