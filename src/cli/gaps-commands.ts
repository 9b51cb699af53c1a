import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { cliExpert, createExpertDesk } from '../gaps/expert-desk.js';
import type { CloseOutcome, ExpertDesk, Person } from '../gaps/expert-types.js';
import { CandorError } from '../kernel/errors.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'indexes' | 'config' | 'log'>;

export interface GapsAnswerOptions {
  /** The gap's number, as typed. */
  readonly gapId: string;
  /** The answer people should get. */
  readonly text: string;
  /** The expert's name, listed as cli:NAME in CANDOR_EXPERTS. */
  readonly as: string;
  /** The gap's knowledge base, checked. @default the gap's own */
  readonly kb?: string | undefined;
  readonly json?: boolean | undefined;
}

/** Dismissing takes no --kb: the gap's number names it. */
export type GapsDismissOptions = Omit<GapsAnswerOptions, 'text' | 'kb'>;

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
 * `candor gaps answer GAP_ID --text TEXT --as NAME`: the text becomes a fact of the gap's KB, through the same
 * desk as the buttons (so the same checks: NAME must be listed as `cli:NAME` among the KB's people in
 * CANDOR_EXPERTS). Exit 1 for every outcome that closed nothing; with --json the outcome is printed all the same.
 */
export async function gapsAnswer(app: CommandServices, options: GapsAnswerOptions, out: Out): Promise<number> {
  const gapId = parseGapId(options.gapId);
  if (options.text.trim() === '')
    throw new CandorError('option_invalid', `gaps answer needs --text TEXT, the answer people should get. ${USAGE}`);
  return closeGap(app, gapId, options, out, (desk, expert) => desk.answer({ gapId, expert, text: options.text }));
}

/** `candor gaps dismiss GAP_ID --as NAME`: the gap marked out of scope, by the same desk and checks as gaps answer. */
export async function gapsDismiss(app: CommandServices, options: GapsDismissOptions, out: Out): Promise<number> {
  const gapId = parseGapId(options.gapId);
  return closeGap(app, gapId, options, out, (desk, expert) => desk.dismiss({ gapId, expert }));
}

function parseGapId(idText: string): number {
  const gapId = Number(idText);
  if (!idText || !Number.isSafeInteger(gapId) || gapId < 1)
    throw new CandorError('option_invalid', `GAP_ID must be a gap's number (see candor report gaps). ${USAGE}`);
  return gapId;
}

/** Closes the gap by `close` when it exists (and is of --kb, if given), then says what happened. */
async function closeGap(
  app: CommandServices,
  gapId: number,
  options: GapsDismissOptions & Pick<GapsAnswerOptions, 'kb'>,
  out: Out,
  close: (desk: ExpertDesk, expert: Person) => Promise<CloseOutcome>,
): Promise<number> {
  const expert = cliExpert(options.as);
  const desk = cliExpertDesk(app);
  const card = await desk.card(gapId);
  if (card && options.kb !== undefined && options.kb !== card.kb)
    throw new CandorError('option_invalid', `Gap ${gapId} belongs to knowledge base "${card.kb}", not "${options.kb}".`);
  const outcome: CloseOutcome = card ? await close(desk, expert) : { kind: 'no_gap' };
  const kb = card?.kb ?? '';
  if (options.json) {
    const { kind, ...detail } = outcome;
    out(JSON.stringify({ outcome: kind, ...(card ? { kb } : {}), ...detail }));
  }
  const telling = `Askers waiting on it are told by the running server (at its start and every ${Math.round(app.config.experts.deliverMs / 1000)} s, CANDOR_EXPERTS_DELIVER_MS).`;
  switch (outcome.kind) {
    case 'answered':
      if (!options.json)
        out(
          `Gap ${gapId} answered by cli:${expert.user}: fact ${outcome.factId} added to "${kb}" (version ${outcome.version}). ` +
            `The bot answers with it from now on. ${telling}`,
        );
      return 0;
    case 'dismissed':
      if (!options.json) out(`Gap ${gapId} marked out of scope (not for the KB) by cli:${expert.user}. ${telling}`);
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
  gaps
    .command('answer')
    .description('answer a gap (ids: candor report gaps): the text becomes a fact of its KB at once, in a new KB version')
    .argument('<gapId>', 'the gap number')
    .requiredOption('--text <text>', 'the answer people should get')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS)')
    .addOption(kbOption('the gap’s knowledge base, checked'))
    .addOption(jsonOption())
    .action(async (gapId: string, opts: Omit<GapsAnswerOptions, 'gapId'>) =>
      cli.done(await cli.withApp('gaps answer', (app) => gapsAnswer(app, { gapId, ...opts }, cli.print))),
    );
  gaps
    .command('dismiss')
    .description('mark a gap out of scope ("not for the KB")')
    .argument('<gapId>', 'the gap number')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS)')
    .addOption(jsonOption())
    .action(async (gapId: string, opts: Omit<GapsDismissOptions, 'gapId'>) =>
      cli.done(await cli.withApp('gaps dismiss', (app) => gapsDismiss(app, { gapId, ...opts }, cli.print))),
    );
}
