/**
 * Run by import-long-name.test.ts in its own process (a spinning import
 * would block the test's own thread for good): save a profile whose name is
 * the longest allowed, export it, import it twice into the same app, and
 * print the names the app ended with.
 */
import { createMemoryLogger } from '../../../../main/log/logger';
import { createProfileService } from '../../../../main/services/profiles';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { plainProfile, SENTINEL } from './helpers';

const dataDir = process.argv[2]!;
const service = createProfileService({ dataDir, vault: createMemoryVault(), logger: createMemoryLogger() });
const name = process.argv[3]!;
await service.save({ profile: plainProfile({ name }), secret: SENTINEL });
const { json } = service.exportProfiles();
await service.importProfiles(json);
await service.importProfiles(json);
const { profiles } = await service.list();
process.stdout.write(JSON.stringify(profiles.map((p) => p.name)));
await service.close();
