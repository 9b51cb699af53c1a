import type { Command } from 'commander';

import type { Cli } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';
import { formatReplyText } from './reply-text.js';

/** `candor ask "QUESTION" [--kb NAME] [--json]`: the JSON is the object POST /api/ask returns. */
export function registerAsk(program: Command, cli: Cli): void {
  program
    .command('ask')
    .description('answer from the knowledge base, or refuse and say why')
    .argument('<question...>', 'the question (quote it, or give it as several words)')
    .addOption(kbOption())
    .addOption(jsonOption('the same object POST /api/ask returns'))
    .addHelpText('after', '\nExit code 0 for an answer and for a refusal; 1 for errors; 2 for usage errors.')
    .action(async (words: string[], opts: { kb?: string; json?: boolean }) => {
      const question = words.join(' ');
      if (question.trim() === '') return cli.done(usageError(cli, 'ask needs a QUESTION (it was empty)'));
      const kb = opts.kb ?? cli.settings().kb.defaultName;
      const code = await cli.withApp('ask', async (app) => {
        const decision = await app.ask({ question, kb, channel: 'cli' });
        cli.print(opts.json ? JSON.stringify(decision) : formatReplyText(decision));
        return 0;
      });
      cli.done(code);
    });
}

/** A usage error found after parsing: said on stderr, exit code 2 (as commander's own). */
export function usageError(cli: Cli, message: string): number {
  cli.progress(message);
  return 2;
}
