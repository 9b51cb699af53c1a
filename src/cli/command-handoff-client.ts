import http from 'node:http';

import { lockSocketOf } from '../store/data-dir-lock.js';
import { HANDOFF_PATH, parseHandoffLine, type Writer } from './command-handoff-protocol.js';

/**
 * Hands a command line to the server that holds the embedded data folder `dataDir`, over the folder's lock socket
 * (only its owner can connect), and writes what the command prints there as it comes. Resolves with the command's
 * exit code; null when no server takes commands there (another command holds the folder, or an older version),
 * so that the caller says "in use" as before.
 */
export async function handOffToServer(
  dataDir: string,
  argv: readonly string[],
  cwd: string,
  io: { out: Writer; err: Writer },
): Promise<number | null> {
  const address = lockSocketOf(dataDir);
  if (!address) return null;
  try {
    return await new Promise<number | null>((done) => {
      const request = http.request(
        { socketPath: address.path, path: HANDOFF_PATH, method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            return done(null);
          }
          relay(response, io, done);
        },
      );
      // A holder that is not a server closes every connection at once: not handed over.
      request.on('error', () => done(null));
      request.end(JSON.stringify({ argv, cwd }));
    });
  } finally {
    address.close();
  }
}

/** Writes each line the server sends (stdout, stderr) and resolves with the exit code that ends them. */
function relay(response: http.IncomingMessage, io: { out: Writer; err: Writer }, done: (code: number) => void): void {
  let pending = '';
  let exit: number | null = null;
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = parseHandoffLine(pending.slice(0, end));
      pending = pending.slice(end + 1);
      if (line === null) continue;
      if ('out' in line) io.out(line.out);
      else if ('err' in line) io.err(line.err);
      else exit = line.exit;
    }
  });
  const finish = () => {
    if (exit === null) io.err('candor: the server stopped before the command finished; run it again\n');
    done(exit ?? 1);
  };
  response.on('end', finish);
  response.on('aborted', finish);
  response.on('error', () => undefined); // 'aborted' or 'end' says it
}
