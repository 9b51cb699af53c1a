import { Command, CommanderError } from 'commander';

import { packageVersion } from '../kernel/version.js';
import { registerAsk } from './ask-command.js';
import { createCli, type Cli } from './cli-context.js';
import { takeCommandsBeside } from './command-handoff-server.js';
import { registerEval } from './eval-commands.js';
import { registerGaps } from './gaps-commands.js';
import { registerIngest } from './ingest-command.js';
import { registerJudge } from './judge-commands.js';
import { registerKb } from './kb-commands.js';
import { registerReport } from './report-commands.js';
import { registerReview } from './review-commands.js';
import { registerServeCommands } from './serve-commands.js';
import { registerSources } from './sources-commands.js';

/**
 * The command line: one commander program, each command group registered by its
 * own module with its own options. Help is generated per command and printed
 * without reading any setting; an unknown option, a missing argument or an
 * unknown command is a usage error (exit 2) followed by that command's help.
 */
export function buildProgram(cli: Cli): Command {
  const program = new Command('candor')
    .description('Answers from your knowledge base, and says "I don\'t know" when it does not hold the answer.')
    .usage('<command> [options]')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'print the help of candor or of a command')
    .helpCommand('help [command]', 'print the help of a command')
    .exitOverride()
    .showHelpAfterError(true)
    .configureOutput({
      writeOut: (text) => cli.out(text),
      writeErr: (text) => cli.err(text),
      // commander says "error: …"; every other line of ours says "candor: …"
      outputError: (text, write) => write(text.replace(/^error: /, 'candor: ')),
    })
    .addHelpText(
      'after',
      '\nSettings come from the environment (docs/configuration.md). --json prints one JSON object on stdout.\n' +
        'Exit codes: 0 done, 1 failed, 2 usage.',
    );
  // settings that subcommands inherit are set above, before they are made
  // a server takes the commands of a CLI beside it on the embedded store (src/cli/command-handoff-server.ts)
  registerServeCommands(program, cli, (app) => takeCommandsBeside(app, runProgram));
  registerIngest(program, cli);
  registerAsk(program, cli);
  registerEval(program, cli);
  registerReview(program, cli);
  registerJudge(program, cli);
  registerReport(program, cli);
  registerGaps(program, cli);
  registerKb(program, cli);
  registerSources(program, cli);
  program
    .command('version')
    .description('print the version')
    .action(() => cli.print(packageVersion()));
  return program;
}

/** Runs one command line; resolves to its exit code: 0 done, 1 failed, 2 usage. Errors a command throws reject. */
export async function runProgram(argv: readonly string[], cli: Cli = createCli({ argv })): Promise<number> {
  const program = buildProgram(cli);
  const [first] = argv;
  // `candor nosuch --help` would print the top-level help and succeed; an unknown command is a usage error first.
  if (
    first !== undefined &&
    first !== 'help' &&
    !first.startsWith('-') &&
    !program.commands.some((c) => c.name() === first || c.aliases().includes(first))
  ) {
    cli.err(`candor: unknown command '${first}'\n`);
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return exitCode(error);
    throw error;
  }
  return cli.exitCode;
}

/** Help and version asked for (commander's exit code 0): 0. A group without its subcommand (help on stderr) and every usage error: 2. */
function exitCode(error: CommanderError): number {
  return error.exitCode === 0 ? 0 : 2;
}

/** The help page of a command path ("gaps", "gaps answer"), as `candor … --help` prints it; null for no such command. */
export function commandHelp(path: string): string | null {
  let command: Command | undefined = buildProgram(createCli());
  for (const name of path.split(/\s+/).filter(Boolean)) command = command?.commands.find((c) => c.name() === name);
  if (!command) return null;
  let text = '';
  command.configureOutput({ writeOut: (s) => void (text += s) }).outputHelp();
  return text;
}

/** Every command path, groups and their subcommands ("eval", "eval loo", …), for docs and tests. */
export function commandPaths(): string[] {
  const walk = (command: Command, prefix: string): string[] =>
    command.commands.flatMap((c) => [`${prefix}${c.name()}`, ...walk(c, `${prefix}${c.name()} `)]);
  return walk(buildProgram(createCli()), '');
}
