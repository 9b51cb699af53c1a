import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';

/** The part of the store's PGlite client a checkpoint needs (the guard, so it queues behind other statements). */
interface Queryable {
  query<T>(query: string): Promise<{ rows: T[] }>;
}

export interface CheckpointOptions {
  /** Checkpoint when this long has passed since the last one and anything was written; 0: never by time. */
  readonly everyMs: number;
  /** Checkpoint when this much WAL has been written since the last one, whatever the time. */
  readonly walBytes: number;
  /** How often the WAL is looked at. @default 5 s, or everyMs when shorter */
  readonly lookEveryMs?: number;
  readonly log?: Log | undefined;
  readonly now?: () => number;
}

export interface PeriodicCheckpoint {
  /** Looks now: checkpoints when one is due (by time or WAL); resolves with whether it did. */
  look(): Promise<boolean>;
  stop(): void;
}

const LOOK_EVERY_MS = 5_000;

/**
 * PGlite runs PostgreSQL as a single backend: there is no checkpointer process, so neither checkpoint_timeout
 * nor max_wal_size ever fires (PostgreSQL requests a WAL-size checkpoint only under a postmaster). Without this a
 * long-running server checkpoints only at a clean shutdown, and a SIGKILL or OOM kill leaves every byte of WAL
 * since its start to replay. This looks at the WAL every few seconds and runs `CHECKPOINT` once `walBytes`
 * have piled up, or once `everyMs` has passed with anything written (an idle server is left alone). A failure
 * is logged and tried again at the next look.
 */
export function startPeriodicCheckpoint(client: Queryable, options: CheckpointOptions): PeriodicCheckpoint {
  const now = options.now ?? Date.now;
  let last = { at: now(), lsn: null as string | null };
  let looking: Promise<boolean> | null = null;
  const wal = async () =>
    (
      await client.query<{ lsn: string; since: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn, pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as since from pg_control_checkpoint()',
      )
    ).rows[0]!;
  const checkpointIfDue = async (): Promise<boolean> => {
    const { lsn, since } = await wal();
    const written = lsn !== last.lsn && Number(since) > 0;
    const byTime = options.everyMs > 0 && now() - last.at >= options.everyMs;
    if (!written || (!byTime && Number(since) < options.walBytes)) return false;
    const started = now();
    await client.query('checkpoint');
    last = { at: now(), lsn: (await wal()).lsn };
    options.log?.('debug', 'store: checkpoint', { walBytes: Number(since), durationMs: now() - started });
    return true;
  };
  const look = () =>
    (looking ??= checkpointIfDue().finally(() => {
      looking = null;
    }));
  const lookEveryMs = options.lookEveryMs ?? Math.min(LOOK_EVERY_MS, options.everyMs || LOOK_EVERY_MS);
  const timer = setInterval(() => {
    look().catch((error: unknown) => options.log?.('warn', 'store: periodic checkpoint failed', { error: describeError(error) }));
  }, lookEveryMs);
  timer.unref();
  return { look, stop: () => clearInterval(timer) };
}
