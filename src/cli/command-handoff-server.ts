import http from 'node:http';

import type { Candor } from '../app/main.js';
import { createCli, type Cli } from './cli-context.js';
import { HANDOFF_PATH, HandoffRequest, type HandoffLine } from './command-handoff-protocol.js';
import { failureLines } from './failure-lines.js';

/** A command line is a few KB; a bigger body is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Takes command lines from a CLI beside this server (`candor ingest`, `gaps answer`, `report gaps`…) on the
 * embedded data folder's lock socket, which only the folder's owner can reach, and runs each on this server's own
 * root: the folder is never opened twice, and the server's answers see a change as soon as the command makes it.
 * False where the store has no such socket (PostgreSQL: there the CLI opens the database itself).
 */
export function takeCommandsBeside(app: Candor, run: RunProgram): boolean {
  const server = http.createServer((request, response) => void runHandedCommand(app, run, request, response));
  server.on('clientError', (_error, socket) => socket.destroy());
  return app.store.acceptOnLock((socket) => server.emit('connection', socket));
}

/** Runs one command line with the given output and root (program.ts `runProgram`). */
export type RunProgram = (argv: readonly string[], cli: Cli) => Promise<number>;

async function runHandedCommand(app: Candor, run: RunProgram, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  if (request.method !== 'POST' || request.url !== HANDOFF_PATH) return void response.writeHead(404).end();
  const parsed = HandoffRequest.safeParse(await readJson(request));
  if (!parsed.success) return void response.writeHead(400, { 'content-type': 'text/plain' }).end('expected {"argv":[…],"cwd":"/…"}\n');
  const { argv, cwd } = parsed.data;
  const started = performance.now();
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const send = (line: HandoffLine) => void response.write(`${JSON.stringify(line)}\n`);
  let code: number;
  if (argv[0] === 'serve' || argv[0] === 'start') {
    send({ err: `candor: this data folder is served already (process ${process.pid}); stop that server to start another\n` });
    code = 1;
  } else {
    const cli = createCli({ app, argv, cwd, out: (text) => send({ out: text }), err: (text) => send({ err: text }) });
    code = await run(argv, cli).catch((error: unknown) => {
      for (const line of failureLines(error, argv)) send({ err: line });
      return 1;
    });
  }
  send({ exit: code });
  response.end();
  // The command's name only: its arguments may be a question or an expert's answer (user text stays out of logs).
  const command = /^[a-z][a-z-]*$/.test(argv[0] ?? '') ? argv[0] : 'unknown';
  app.log('info', 'ran a command handed over by a CLI beside the server', {
    command,
    exit: code,
    ms: Math.round(performance.now() - started),
  });
}

/** The request's JSON body, or undefined (too big, not JSON). */
async function readJson(request: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
