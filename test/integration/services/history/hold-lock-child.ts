/**
 * Another program holding history.sqlite: opens it in exclusive locking mode, takes an exclusive transaction (so no
 * other connection can even read it), prints "held", and lets go after the given milliseconds.
 */
import { DatabaseSync } from 'node:sqlite';

const [file, ms] = process.argv.slice(2);
const db = new DatabaseSync(file!);
db.exec('PRAGMA locking_mode = EXCLUSIVE');
db.exec('BEGIN EXCLUSIVE');
db.exec('CREATE TABLE IF NOT EXISTS held_by_another_program (x)'); // a write takes the lock for real
process.stdout.write('held\n');
setTimeout(() => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\n');
}, Number(ms));
