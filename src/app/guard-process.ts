import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { instruments } from '../telemetry/instruments.js';

export interface ProcessGuardOptions {
  readonly log: Log;
  /** Called once when the process must go (a burst of uncaught exceptions); it stops what it can and exits. */
  readonly fatal: (reason: string) => void;
  /** Uncaught exceptions within `windowMs` that make state suspect. @default 5 */
  readonly burst?: number;
  /** @default 60_000 */
  readonly windowMs?: number;
  readonly now?: () => number;
}

/**
 * Process-level errors that no handler caught are logged and counted
 * (`candor.process.errors` by kind), and the server goes on: one bad request
 * must not take every other user's answers down. A burst of uncaught
 * exceptions means some invariant no longer holds; then the process exits
 * (`fatal`) and its supervisor starts a clean one (the data-folder lock does
 * not stand in the way).
 */
export function guardProcess(options: ProcessGuardOptions): () => void {
  const { onRejection, onException } = processErrorHandlers(options);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

/** The two handlers guardProcess installs, apart from the process (tests call them). */
export function processErrorHandlers(options: ProcessGuardOptions): {
  onRejection: (reason: unknown) => void;
  onException: (error: unknown) => void;
} {
  const { log } = options;
  const burst = options.burst ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const recent: number[] = [];
  let gone = false;
  return {
    onRejection(reason) {
      instruments.processErrors().add(1, { kind: 'unhandled_rejection' });
      log('error', 'unhandled promise rejection', { error: loggable(reason) });
    },
    onException(error) {
      instruments.processErrors().add(1, { kind: 'uncaught_exception' });
      log('error', 'uncaught exception', { error: loggable(error) });
      const t = now();
      recent.push(t);
      while (recent.length > 0 && recent[0]! <= t - windowMs) recent.shift();
      if (recent.length >= burst && !gone) {
        gone = true;
        options.fatal(`${recent.length} uncaught exceptions within ${windowMs / 1000} s`);
      }
    },
  };
}

/** An Error as it is (the log puts its type, describeError's words, code and stack frames on the line); anything else in words. */
function loggable(error: unknown): unknown {
  return error instanceof Error ? error : describeError(error);
}
