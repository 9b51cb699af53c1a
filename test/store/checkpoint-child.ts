// A process that writes to an embedded store with a short checkpoint interval and waits to be killed:
// `node --import tsx test/store/checkpoint-child.ts DIR`. Writes 20 rows, waits for the periodic checkpoint
// (its log line), writes 20 more, and prints one JSON line: the rows written and the checkpoints seen.
import { sql } from 'drizzle-orm';

import { openStore } from '../../src/store/open-store.js';

const [dataDir = ''] = process.argv.slice(2);
let checkpoints = 0;
let checkpointed: () => void = () => undefined;
const store = await openStore({
  dataDir,
  checkpointMs: 100,
  log: (_level, message) => {
    if (message !== 'store: checkpoint') return;
    checkpoints++;
    checkpointed();
  },
});
const insert = (from: number) =>
  store.db.execute(sql`insert into kept_rows select g from generate_series(${from}::int, ${from + 19}::int) g`);
await store.db.execute(sql`create table kept_rows (n int primary key)`);
await insert(1);
await new Promise<void>((resolve) => (checkpointed = resolve));
await insert(21);
process.stdout.write(`${JSON.stringify({ rows: 40, checkpoints })}\n`);
setInterval(() => undefined, 60_000);
