/**
 * The child of bench/checkpoint-replay.bench.ts: opens an embedded store as `candor serve` does, with the given
 * checkpoint settings, writes ROWS rows of 1 KB in batches of 500 (one commit each), then prints one JSON line
 * (rows written, seconds taken, WAL since the last checkpoint, checkpoints run) and waits to be killed with SIGKILL.
 *
 *   node --import tsx bench/checkpoint-writer.ts DIR ROWS CHECKPOINT_MS WAL_MB
 */
import { sql } from 'drizzle-orm';

import { openStore } from '../src/store/open-store.js';

const [dataDir = '', total = '100000', checkpointMs = '0', walMb = '16384'] = process.argv.slice(2);
let checkpoints = 0;
const store = await openStore({
  dataDir,
  checkpointMs: Number(checkpointMs),
  checkpointWalMb: Number(walMb),
  log: (_level, message) => void (message === 'store: checkpoint' && checkpoints++),
});
const rows = async <T>(query: ReturnType<typeof sql>) => ((await store.db.execute(query)) as unknown as { rows: T[] }).rows;
await store.db.execute(sql`create table if not exists bench_rows (n int, s text)`);
const started = Date.now();
let written = 0;
while (written < Number(total)) {
  await store.db.execute(
    sql`insert into bench_rows select g, repeat(md5(g::text), 32) from generate_series(${written + 1}::int, ${written + 500}::int) g`,
  );
  written += 500;
  // Let the checkpoint timer in between commits, as a server's requests would.
  await new Promise((resolve) => setImmediate(resolve));
}
const [wal] = await rows<{ since: string }>(
  sql`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as since from pg_control_checkpoint()`,
);
process.stdout.write(
  `${JSON.stringify({ rows: written, seconds: (Date.now() - started) / 1000, walSinceCheckpointBytes: Number(wal!.since), checkpoints })}\n`,
);
setInterval(() => undefined, 60_000);
