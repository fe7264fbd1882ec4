/** Export the clusters to a JSON file (never with secrets) and import them back. */
import { useRef, useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common';
import { useProfiles } from '../../stores/profiles';

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

export function TransferSection() {
  const file = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<AppErrorValue>();
  const [outcome, setOutcome] = useState('');

  const exportAll = async () => {
    const answer = await useProfiles.getState().exportProfiles();
    if (!answer.ok) return setError(answer.error);
    setError(undefined);
    download(answer.value.fileName, answer.value.json);
    setOutcome(`Exported to ${answer.value.fileName} (token secrets are never exported).`);
  };

  const importFile = async (f: File) => {
    const answer = await useProfiles.getState().importProfiles(await f.text());
    if (!answer.ok) {
      setOutcome('');
      return setError(answer.error);
    }
    setError(undefined);
    const names = answer.value.imported.map((p) => p.name).join(', ');
    setOutcome(
      `Imported ${answer.value.imported.length} ${answer.value.imported.length === 1 ? 'cluster' : 'clusters'}: ${names}. Give each its token secret before use.`,
    );
  };

  return (
    <section aria-labelledby="settings-transfer">
      <h2 id="settings-transfer">Export and import</h2>
      <div className="form-actions">
        <button type="button" onClick={() => void exportAll()}>
          Export clusters
        </button>
        <button type="button" onClick={() => file.current?.click()}>
          Import clusters…
        </button>
        <input
          ref={file}
          type="file"
          accept="application/json,.json"
          aria-label="Cluster file to import"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void importFile(f);
            e.target.value = '';
          }}
        />
      </div>
      <p role="status">{outcome}</p>
      {error && <ErrorNotice title="Export or import failed" error={error} onDismiss={() => setError(undefined)} />}
    </section>
  );
}
