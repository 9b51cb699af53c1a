// A process that takes an embedded data folder's lock and keeps it until killed:
// `node --import tsx test/store/hold-lock.ts DIR`. Prints "locked" or "refused: <code>: <message>".
import { lockDataDir } from '../../src/store/data-dir-lock.js';

const [dir = '.', command = 'serve'] = process.argv.slice(2);
try {
  await lockDataDir(dir, command);
  process.stdout.write('locked\n');
  setInterval(() => undefined, 60_000);
} catch (error) {
  process.stdout.write(`refused: ${(error as { code?: string }).code}: ${(error as Error).message}\n`);
  process.exitCode = 3;
}
