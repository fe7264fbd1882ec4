/** Loads node:sqlite the app's way, then emits two other warnings: the parent reads what reached stderr. */
import { loadSqlite } from '../../../../main/services/history/sqlite-module';

const { DatabaseSync } = loadSqlite();
new DatabaseSync(':memory:').close();
process.emitWarning('Some other feature is an experimental feature', 'ExperimentalWarning');
process.emitWarning('a deprecation the user must still see', 'DeprecationWarning');
