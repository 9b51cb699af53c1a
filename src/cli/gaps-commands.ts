import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { cliExpert, createExpertDesk } from '../gaps/expert-desk.js';
import type { CloseOutcome, ExpertDesk } from '../gaps/expert-types.js';
import { CandorError } from '../kernel/errors.js';
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'indexes' | 'config' | 'log'>;

export interface GapsArgs {
  /** ["gaps", "answer" | "dismiss", GAP_ID]. */
  readonly positionals: readonly string[];
  readonly values: { text?: string | undefined; as?: string | undefined; kb?: string | undefined; json?: boolean | undefined };
}

const USAGE = 'Usage: candor gaps answer GAP_ID --text TEXT --as NAME [--kb NAME] [--json] | candor gaps dismiss GAP_ID --as NAME [--json]';

/** The experts desk the Slack and Teams buttons call, over the CLI's app (this process posts and tells nothing itself). */
export function cliExpertDesk(app: CommandServices): ExpertDesk {
  return createExpertDesk({
    db: app.store.db,
    indexes: app.indexes,
    experts: app.config.experts.kbs,
    secret: app.config.telemetry.userHashSalt,
    log: app.log,
  });
}

/**
 * `candor gaps answer|dismiss`: closes a gap for experts without chat, through
 * the same desk as the buttons (so the same checks: NAME must be listed as
 * `cli:NAME` among the KB's people in CANDOR_EXPERTS). Exit 1 for every outcome
 * that closed nothing; with --json the outcome is printed all the same.
 */
export async function expertGapsCommand(app: CommandServices, args: GapsArgs, out: (text: string) => void): Promise<number> {
  const [, sub, idText] = args.positionals;
  if (sub !== 'answer' && sub !== 'dismiss') throw new CandorError('option_invalid', `gaps supports: answer, dismiss. ${USAGE}`);
  const gapId = Number(idText);
  if (!idText || !Number.isSafeInteger(gapId) || gapId < 1)
    throw new CandorError('option_invalid', `GAP_ID must be a gap's number (see candor report gaps). ${USAGE}`);
  if (sub === 'answer' && (args.values.text ?? '').trim() === '')
    throw new CandorError('option_invalid', `gaps answer needs --text TEXT, the answer people should get. ${USAGE}`);
  const expert = cliExpert(args.values.as);
  const desk = cliExpertDesk(app);
  const card = await desk.card(gapId);
  if (card && args.values.kb !== undefined && args.values.kb !== card.kb)
    throw new CandorError('option_invalid', `Gap ${gapId} belongs to knowledge base "${card.kb}", not "${args.values.kb}".`);
  const outcome: CloseOutcome = !card
    ? { kind: 'no_gap' }
    : sub === 'answer'
      ? await desk.answer({ gapId, expert, text: args.values.text ?? '' })
      : await desk.dismiss({ gapId, expert });
  const kb = card?.kb ?? '';
  const telling = `Askers waiting on it are told by the running server (at its start and every ${Math.round(app.config.experts.deliverMs / 1000)} s, CANDOR_EXPERTS_DELIVER_MS).`;
  if (args.values.json) {
    const { kind, ...detail } = outcome;
    out(JSON.stringify({ outcome: kind, ...(card ? { kb } : {}), ...detail }));
  }
  switch (outcome.kind) {
    case 'answered':
      if (!args.values.json)
        out(
          `Gap ${gapId} answered by cli:${expert.user}: fact ${outcome.factId} added to "${kb}" (version ${outcome.version}). ` +
            `The bot answers with it from now on. ${telling}`,
        );
      return 0;
    case 'dismissed':
      if (!args.values.json) out(`Gap ${gapId} marked out of scope (not for the KB) by cli:${expert.user}. ${telling}`);
      return 0;
    case 'already_closed':
      throw new CandorError(
        'conflict',
        `Gap ${gapId} was already ${outcome.state === 'answered' ? 'answered' : 'marked out of scope'}${outcome.by ? ` by ${outcome.by}` : ''}; nothing changed.`,
      );
    case 'not_an_expert':
      throw new CandorError(
        'not_permitted',
        desk.entry(kb)
          ? `"${expert.user}" is not an expert of knowledge base "${kb}": CANDOR_EXPERTS does not list "cli:${expert.user}" among its people; ask whoever runs Candor to add it.`
          : `Knowledge base "${kb}" has no experts: CANDOR_EXPERTS names none for it; ask whoever runs Candor to add {"kb":"${kb}","people":["cli:${expert.user}"]}.`,
      );
    case 'no_gap':
      throw new CandorError('not_found', `There is no gap ${gapId}. List them with: candor report gaps`);
  }
}

/** `candor gaps answer|dismiss`. */
export function registerGaps(program: Command, cli: Cli): void {
  const gaps = program
    .command('gaps')
    .description('close knowledge-base gaps as an expert: answer one, or mark it out of scope')
    .addHelpText(
      'after',
      '\nThe same experts desk as the Slack and Teams buttons: NAME must be listed as "cli:NAME" among the people of the\n' +
        'gap\'s KB in CANDOR_EXPERTS. Askers who pressed "Ask an expert" are told by the running server (at its start and\n' +
        'every CANDOR_EXPERTS_DELIVER_MS). Exit code 1 when nothing was closed.',
    );
  const run = (sub: 'answer' | 'dismiss', id: string, values: GapsArgs['values']) =>
    cli.withApp(`gaps ${sub}`, (app) => expertGapsCommand(app, { positionals: ['gaps', sub, id], values }, cli.print));
  gaps
    .command('answer')
    .description('answer a gap (ids: candor report gaps): the text becomes a fact of its KB at once, in a new KB version')
    .argument('<gapId>', 'the gap number')
    .requiredOption('--text <text>', 'the answer people should get')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS)')
    .addOption(kbOption('the gap’s knowledge base, checked'))
    .addOption(jsonOption())
    .action(async (id: string, opts: GapsArgs['values']) => cli.done(await run('answer', id, opts)));
  gaps
    .command('dismiss')
    .description('mark a gap out of scope ("not for the KB")')
    .argument('<gapId>', 'the gap number')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS)')
    .addOption(jsonOption())
    .action(async (id: string, opts: GapsArgs['values']) => cli.done(await run('dismiss', id, opts)));
}
