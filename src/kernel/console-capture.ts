import { foreignText, type Log, type LogLevel } from './log.js';

const METHODS = { error: 'error', warn: 'warn', info: 'info', log: 'info', debug: 'debug', trace: 'debug' } as const;

/**
 * Routes what libraries print with console.* (the Bot Framework's adapter and token checks do: stacks, key dumps
 * over several lines) into the JSON log, one short line per call (see foreignText), so a server's stderr stays one
 * JSON object per line. Returns the undo. Candor itself never prints through console.
 */
export function captureConsole(log: Log): () => void {
  const saved = Object.keys(METHODS).map((name) => [name, console[name as keyof typeof METHODS]] as const);
  for (const [name, level] of Object.entries(METHODS) as [keyof typeof METHODS, LogLevel][]) {
    console[name] = (...parts: unknown[]) => log(level, `library: ${foreignText(parts)}`);
  }
  return () => {
    for (const [name, original] of saved) console[name as keyof typeof METHODS] = original;
  };
}
