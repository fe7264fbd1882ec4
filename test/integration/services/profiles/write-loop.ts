/**
 * Child process of atomic-write.test.ts: rewrites the profile file in a
 * loop (each write a valid document of ~600 kB whose profiles all carry the
 * write's generation) until it is killed, printing `wrote <n>` after each.
 * It imports only the store, so it starts fast.
 */
import { defaultSettings } from '../../../../shared/domain/profile';
import { openConfDocumentStore, PROFILE_FILE_NAME } from '../../../../main/services/profiles/document-store';
import { DOCUMENT_VERSION, migrations } from '../../../../main/services/profiles/migrations';

const cwd = process.argv[2]!;
const run = process.argv[3]!;
const store = openConfDocumentStore({ cwd, name: PROFILE_FILE_NAME, version: DOCUMENT_VERSION, migrations });
for (let generation = 1; ; generation++) {
  const stamp = `${run}-${generation}`;
  const profiles = Array.from({ length: 250 }, (_, i) => ({
    id: `p${i}`,
    name: `Lab ${i}`,
    url: 'https://127.0.0.1:9',
    tls: { mode: 'system' },
    token: { secretStorage: 'session', tokenId: 'proxy-operator@pve!operator' },
    nodes: ['pve1'],
    isoStorage: 'proxy-seeds',
    templates: { debian: { vmid: 9000 } },
    machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    vendorData: 'x'.repeat(2000),
    createdAt: stamp,
    updatedAt: stamp,
  }));
  store.write({ profiles, secrets: {}, settings: defaultSettings });
  process.stdout.write(`wrote ${generation}\n`);
}
