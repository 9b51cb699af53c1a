import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { withinTime } from '../../src/kernel/within-time.js';
import { candorInProcess } from '../support/cli-in-process.js';
import { migratedStore } from '../support/migrated-store.js';
import { startServe, stopWith, type ServeProcess } from './serve-process.js';

const TOKEN = 'first-run-console-token-0123456789abcdef';
/** A loaded CI machine starts tsx, opens PGlite and closes it slowly; a hang is what must fail. */
const EXIT_MS = 90_000;

/** What a new user meets on a first run: `candor serve` as a process of its own, on an embedded store. */
describe('a first run of candor serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-first-run-'));
  const servers: ServeProcess[] = [];
  const occupied: Server[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(occupied.map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });
  const run = (env: Record<string, string>, args: string[]) => {
    const server = startServe(env, { args });
    servers.push(server);
    return server;
  };
  const exitCode = (server: ServeProcess) => withinTime<number | null | 'still running'>(server.exited, EXIT_MS, () => 'still running');

  it(
    'on a port in use: one line naming the port, exit 1 by itself, and the data folder released',
    async () => {
      const taken = createServer();
      occupied.push(taken);
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      const env = { CANDOR_DATA_DIR: await migratedStore(join(dir, 'port-in-use')), PORT: String(port) };

      const server = run(env, ['serve']);
      expect(await exitCode(server), server.stderr()).toBe(1);
      expect(server.stderr().trimEnd().split('\n')).toEqual([
        `candor: Port ${port} on 127.0.0.1 is in use (another Candor or another program): stop it or set PORT.`,
      ]);

      // The lock was released: another command opens the folder.
      const migrate = run(env, ['migrate']);
      expect(await exitCode(migrate), migrate.stderr()).toBe(0);
    },
    2 * EXIT_MS + 30_000,
  );

  it(
    'with a console token: prints a one-time sign-in link (never the token); a CLI command meanwhile runs on it, a second server is refused',
    async () => {
      const env = {
        CANDOR_DATA_DIR: await migratedStore(join(dir, 'console')),
        PORT: '0',
        CANDOR_CONSOLE_TOKEN: TOKEN,
        LOG_LEVEL: 'debug',
      };
      const server = run(env, ['serve']);
      const url = await server.serving(EXIT_MS);
      const link = /^Console: (http:\/\/\S+)/m.exec(server.stderr())?.[1];
      expect(link, server.stderr()).toMatch(new RegExp(`^${url}/login\\?code=[\\w-]{43}$`));
      expect(server.stderr()).toContain(`Ask: curl -s ${url}/api/ask`);

      const signedIn = await fetch(link!, { redirect: 'manual' });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${url}/`, { headers: { cookie }, redirect: 'manual' })).status).toBe(200);
      const again = await fetch(link!, { redirect: 'manual' });
      expect(again.status).toBe(401);
      expect(await again.text()).toContain('That sign-in link no longer works');

      // The embedded folder is the server's: another command is handed to it and runs there (its reply printed here);
      // only a second server is refused, in one line that says what to do instead.
      const ask = await candorInProcess(['kb', 'list', '--json'], env);
      expect(ask.code, ask.stderr).toBe(0);
      expect(JSON.parse(ask.stdout)).toEqual({ default: 'default', kbs: [] });
      const second = await candorInProcess(['serve'], env);
      expect(second.code).toBe(1);
      const refusal = second.stderr.trimEnd().split('\n');
      expect(refusal).toHaveLength(1);
      expect(refusal[0]).toContain(`in use by process ${server.child.pid}`);
      expect(refusal[0]).toContain('"candor serve"');
      expect(refusal[0]).toContain('stop that server (Ctrl-C) and run this command again');
      expect(refusal[0]).toContain('or set DATABASE_URL to a PostgreSQL server, where the CLI and the server run side by side.');

      expect((await stopWith(server, 'SIGTERM')).code).toBe(0);
      expect(server.stderr()).not.toContain(TOKEN);
      expect(ask.stderr).not.toContain(TOKEN);
    },
    2 * EXIT_MS,
  );
});
