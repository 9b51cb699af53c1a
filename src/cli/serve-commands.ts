import type { Command } from 'commander';

import type { Candor } from '../app/main.js';
import { serve } from '../app/serve.js';
import { channelMap, formatChannelMap } from '../channels/chat/channel-map.js';
import { kbStatus } from '../kb/ingest/ingest.js';
import type { Cli } from './cli-context.js';
import { jsonOption } from './cli-options.js';
import { ensureExampleKb } from './ingest-command.js';

/** `candor start`, `serve`, `migrate` and `channels`: running the bot and checking how it is set up. */
export function registerServeCommands(program: Command, cli: Cli, whileServing: (app: Candor) => void): void {
  program
    .command('start')
    .description('ingest the example KB if the KB is empty, then serve (the quick start)')
    .addHelpText(
      'after',
      '\nIngests the example documents (examples/kb, found beside the installed code, whatever the working directory)\n' +
        'when the knowledge base is empty, then serves as `candor serve` does.',
    )
    .action(async () =>
      cli.done(await serveCommand(cli, 'start', whileServing, (app) => ensureExampleKb(app, app.config.kb.defaultName, cli))),
    );

  program
    .command('serve')
    .description('HTTP API (/api/ask, /healthz, /metrics), the console at /, and the configured channels')
    .addHelpText(
      'after',
      `
HTTP server on HOST:PORT (default 127.0.0.1:3000):
  POST /api/ask      the JSON ask API            GET /healthz   200 while the store answers
  GET  /metrics      Prometheus text format      GET /          the console (CANDOR_CONSOLE_TOKEN or
  /slack/events      Slack (SLACK_BOT_TOKEN)                       CANDOR_CONSOLE_BASIC_AUTH)
  /api/messages      Teams (MICROSOFT_APP_ID)
Stops gracefully on SIGINT/SIGTERM (requests in flight finish, the store closes).
With the embedded store (no DATABASE_URL) the data folder is this process's alone: other candor commands
run meanwhile are handed to this server over the folder's socket and run here (docs/commands.md).`,
    )
    .action(async () => cli.done(await serveCommand(cli, 'serve', whileServing)));

  program
    .command('migrate')
    .description('apply pending database migrations, then exit (a deployment’s init step)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nApplies pending migrations (migrations/, under an advisory lock on PostgreSQL) and exits 0. `candor serve` does\n' +
        'the same at start; run this as an init step so that replicas start on a migrated schema.',
    )
    .action(async (opts: { json?: boolean }) => {
      // opening the store applies pending migrations
      const code = await cli.withApp('migrate', async (app) => {
        if (opts.json) cli.print(JSON.stringify({ migrated: true, store: app.store.kind }));
        else cli.progress(`migrations applied (store: ${app.store.kind})`);
        return 0;
      });
      cli.done(code);
    });

  program
    .command('channels')
    .description('which knowledge bases answer in which Slack channel / Teams conversation (CANDOR_CHANNELS)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nEach CANDOR_CHANNELS entry in order, with its KBs’ versions and sizes, whether it answers every message or only\n' +
        'mentions, and its reply mode; then the default (CANDOR_KB). Exits 1 when an entry names a knowledge base that\n' +
        'does not exist (serve refuses to start then).',
    )
    .action(async (opts: { json?: boolean }) => {
      const code = await cli.withApp('channels', async (app) => {
        const rows = await channelMap(app.config.channels, app.config.kb.defaultName, (name) => kbStatus(app.store.db, name));
        cli.print(opts.json ? JSON.stringify({ channels: rows }) : formatChannelMap(rows));
        return rows.some((r) => r.kbs.some((k) => k.version === null) && r.platform !== 'default') ? 1 : 0;
      });
      cli.done(code);
    });
}

/**
 * Serves until a signal stops the server (the root stays open); `prepare` runs first (start: the example KB), and
 * `whileServing` once it serves (taking the commands of a CLI beside it).
 */
async function serveCommand(
  cli: Cli,
  purpose: string,
  whileServing: (app: Candor) => void,
  prepare?: (app: Candor) => Promise<void>,
): Promise<number> {
  return cli.withApp(
    purpose,
    async (app) => {
      await prepare?.(app);
      await serve(app);
      whileServing(app);
      return 0;
    },
    { keepOpen: true },
  );
}
