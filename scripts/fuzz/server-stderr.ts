/** One kind of error the server wrote to stderr, with how often and its first full line. */
export interface ServerError {
  readonly key: string;
  count: number;
  readonly first: string;
}

const MAX_KINDS = 50;
/** What a healthy start writes that is not a log line. */
const BANNER =
  /^(Candor is serving on |Ask: curl |Console: |Debugger listening on |Debugger attached|Debugger ending on |Waiting for the debugger|For help, see: )/;
const TAIL_LINES = 80;

/**
 * Reads the server's stderr as it comes: its JSON log lines at level error,
 * and anything that is not a log line (Node's own crash output, stack
 * frames), grouped so that a failure seen 10,000 times is listed once.
 */
export class ServerStderr {
  private partial = '';
  private readonly tail: string[] = [];
  private readonly errors = new Map<string, ServerError>();
  private all = '';

  /** Everything written until the server said it serves (start-up problems are told in full). */
  get startup(): string {
    return this.all;
  }

  write(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    if (this.all.length < 200_000) this.all += chunk.toString();
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  errorsSeen(): ServerError[] {
    return [...this.errors.values()].sort((a, b) => b.count - a.count);
  }

  tailText(): string {
    return [...this.tail, this.partial].filter(Boolean).join('\n');
  }

  private line(line: string): void {
    if (line.trim() === '') return;
    this.tail.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    let key: string | null;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.level !== 'error' && entry.level !== 'fatal') return;
      key = [entry.message, entry.path, entry.error ?? entry.code].filter((p) => p !== undefined).join(' | ');
    } catch {
      if (BANNER.test(line)) return;
      key = `raw: ${line.trim().replace(/\d+/g, 'N').slice(0, 300)}`;
    }
    const known = this.errors.get(key);
    if (known) known.count += 1;
    else if (this.errors.size < MAX_KINDS) this.errors.set(key, { key, count: 1, first: line.slice(0, 4000) });
  }
}
