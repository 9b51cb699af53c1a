export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

const ORDER: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** JSON lines on stderr (stdout stays free for command output). Callers never pass secrets or user text. */
export function createLog(threshold: LogLevel | 'silent', write: (line: string) => void = (l) => process.stderr.write(l)): Log {
  return (level, message, fields = {}) => {
    if (ORDER[level] < ORDER[threshold]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
  };
}
