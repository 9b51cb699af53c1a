import type { Command } from 'commander';
import { eq } from 'drizzle-orm';

import type { Services } from '../ask/services.js';
import { isListedExpert } from '../config/experts-setting.js';
import { listExpertFacts, type ExpertFactView } from '../gaps/expert-facts-list.js';
import { retireFact, reviseExpertFact } from '../kb/expert-facts.js';
import { listKbs, type KbSummary } from '../kb/kb-list.js';
import { EXPERT_SOURCE_PREFIX } from '../kb/knowledge-index.js';
import { CandorError } from '../kernel/errors.js';
import { facts, knowledgeBases } from '../store/schema.js';
import type { Cli, Out } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';
import { count } from './format.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'config'>;

export interface KbFactsOptions {
  /** @default CANDOR_KB */
  readonly kb?: string | undefined;
  /** Which facts: expert, the only one listed. */
  readonly source?: string | undefined;
  /** Retired ones too. */
  readonly all?: boolean | undefined;
  readonly json?: boolean | undefined;
}

export interface KbRetireOptions {
  /** The fact's number, as typed. */
  readonly factId: string;
  /** Who retires it. @default "cli" */
  readonly as?: string | undefined;
  readonly json?: boolean | undefined;
}

export interface KbConfirmOptions {
  /** The fact's number, as typed. */
  readonly factId: string;
  /** The expert's name, listed as cli:NAME in CANDOR_EXPERTS for the fact's KB. */
  readonly as: string;
  /** The new text. @default the fact's text, re-confirmed as it is */
  readonly text?: string | undefined;
  readonly json?: boolean | undefined;
}

const USAGE =
  'Usage: candor kb facts --source expert [--kb NAME] [--all] [--json] | candor kb retire FACT_ID [--as NAME] [--json] | ' +
  'candor kb confirm FACT_ID --as NAME [--text TEXT] [--json]';

/** `candor kb list`: every knowledge base with its version, documents and facts. */
export async function kbList(app: CommandServices, options: { json?: boolean | undefined }, out: Out): Promise<number> {
  const kbs = await listKbs(app.store.db);
  const defaultKb = app.config.kb.defaultName;
  out(options.json ? JSON.stringify({ default: defaultKb, kbs }) : formatKbList(kbs, defaultKb));
  return 0;
}

/** `candor kb facts --source expert`: the expert facts of a KB, newest first. */
export async function kbFacts(app: CommandServices, options: KbFactsOptions, out: Out): Promise<number> {
  if (options.source !== undefined && options.source !== 'expert')
    throw new CandorError('option_invalid', `kb facts lists expert answers only (--source expert). ${USAGE}`);
  const kb = options.kb ?? app.config.kb.defaultName;
  const list = await listExpertFacts(app.store.db, {
    kb,
    includeRetired: options.all === true,
    reconfirmDays: app.config.experts.kbs.find((e) => e.kb === kb)?.reconfirmDays,
    now: new Date(),
  });
  out(options.json ? JSON.stringify({ kb, source: EXPERT_SOURCE_PREFIX, facts: list }) : formatFacts(kb, list, options.all === true));
  return 0;
}

/**
 * `candor kb retire FACT_ID [--as NAME]`: the bot stops answering with the fact. Like kb confirm, a new KB
 * version, so answers already given keep naming the text they cited.
 */
export async function kbRetire(app: CommandServices, options: KbRetireOptions, out: Out): Promise<number> {
  const factId = parseFactId(options.factId);
  const name = cliName(options.as);
  const by = name ? `cli:${name}` : 'cli';
  const retired = await retireFact(app.store.db, factId, by);
  out(
    options.json
      ? JSON.stringify({ outcome: 'retired', factId, ...retired, by })
      : `Fact ${factId} retired from "${retired.kb}" (now version ${retired.version}) by ${by}; the bot no longer answers with it.`,
  );
  return 0;
}

/** `candor kb confirm FACT_ID --as NAME [--text TEXT]`: an expert fact re-confirmed as it is, or edited; a new fact replaces it. */
export async function kbConfirm(app: CommandServices, options: KbConfirmOptions, out: Out): Promise<number> {
  const factId = parseFactId(options.factId);
  const name = cliName(options.as);
  if (!name) throw new CandorError('option_invalid', `kb confirm needs --as NAME (listed as cli:NAME in CANDOR_EXPERTS). ${USAGE}`);
  const [fact] = await app.store.db
    .select({ kb: knowledgeBases.name })
    .from(facts)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
    .where(eq(facts.id, factId));
  if (!fact) throw new CandorError('not_found', `There is no fact ${factId}. List them with: candor kb facts --source expert`);
  const entry = app.config.experts.kbs.find((e) => e.kb === fact.kb);
  if (!entry || !isListedExpert(entry.people, 'cli', name))
    throw new CandorError(
      'not_permitted',
      `"${name}" is not an expert of knowledge base "${fact.kb}": CANDOR_EXPERTS does not list "cli:${name}" among its people; ask whoever runs Candor to add it.`,
    );
  const edited = options.text !== undefined;
  const revised = await reviseExpertFact(app.store.db, factId, {
    ...(edited ? { text: options.text } : {}),
    expert: `cli:${name}`,
    name,
  });
  const outcome = edited ? 'edited' : 'confirmed';
  out(
    options.json
      ? JSON.stringify({ outcome, replaced: factId, kb: fact.kb, ...revised, by: `cli:${name}` })
      : `Fact ${factId} ${edited ? 'edited' : 're-confirmed'} by cli:${name}: it is now fact ${revised.factId} of "${fact.kb}" (version ${revised.version}).`,
  );
  return 0;
}

function parseFactId(idText: string): number {
  const factId = Number(idText);
  if (!idText || !Number.isSafeInteger(factId) || factId < 1)
    throw new CandorError('option_invalid', `FACT_ID must be a fact's number (see candor kb facts --source expert). ${USAGE}`);
  return factId;
}

/** --as NAME trimmed; undefined when not given; refused unless one word. */
function cliName(as: string | undefined): string | undefined {
  const name = as?.trim();
  if (name !== undefined && !/^\S{1,64}$/.test(name)) throw new CandorError('option_invalid', '--as NAME: your name, one word');
  return name;
}

/** One block per fact, newest first. */
export function formatFacts(kb: string, list: readonly ExpertFactView[], all: boolean): string {
  const head = `${list.length} expert fact${list.length === 1 ? '' : 's'} in "${kb}"${all ? ' (retired ones too)' : ''}`;
  if (list.length === 0) return `${head}. Experts add them by answering gaps: candor report gaps, then candor gaps answer.`;
  const blocks = list.map((f) => {
    const state =
      f.status === 'retired'
        ? `retired in version ${f.retiredInVersion}`
        : f.status === 'due'
          ? `due for re-confirmation since ${f.dueAt?.slice(0, 10)} (not used until re-confirmed)`
          : f.dueAt
            ? `active, re-confirm by ${f.dueAt.slice(0, 10)}`
            : 'active';
    return [
      `  fact ${f.id}  ${state}; by ${f.author ?? '?'} (${f.source.slice(EXPERT_SOURCE_PREFIX.length)})${f.confirmedAt ? `, confirmed ${f.confirmedAt.slice(0, 10)}` : ''}, added in version ${f.addedInVersion}`,
      `     ${f.text}`,
      ...(f.question ? [`     answers: ${f.question}`] : []),
    ].join('\n');
  });
  return [head, ...blocks].join('\n');
}

/** The knowledge bases as a person reads them: the default one (CANDOR_KB) marked, or how to make one. */
export function formatKbList(kbs: readonly KbSummary[], defaultKb: string): string {
  if (kbs.length === 0) return 'No knowledge base yet. Make one with: candor ingest PATH --kb NAME';
  const width = Math.max(...kbs.map((kb) => kb.name.length));
  const lines = kbs.map(
    (kb) =>
      `  ${kb.name.padEnd(width)}  version ${kb.version}, ${count(kb.documents, 'document')}, ${count(kb.facts, 'fact')}` +
      (kb.name === defaultKb ? '  (default: CANDOR_KB)' : ''),
  );
  const missing = kbs.some((kb) => kb.name === defaultKb) ? [] : [`The default, "${defaultKb}" (CANDOR_KB), does not exist yet.`];
  return [`${count(kbs.length, 'knowledge base')}:`, ...lines, ...missing].join('\n');
}

/** `candor kb list|facts|retire|confirm`. */
export function registerKb(program: Command, cli: Cli): void {
  const kb = program
    .command('kb')
    .description("knowledge bases: list them; a knowledge base's expert facts: list (facts), retire, re-confirm or edit (confirm)");
  kb.command('list')
    .description('every knowledge base with its version, documents and facts; the default one (CANDOR_KB) marked')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => cli.done(await cli.withApp('kb list', (app) => kbList(app, opts, cli.print))));
  kb.command('facts')
    .description("the KB's expert answers, newest first: who gave each, when confirmed, when due for re-confirmation")
    .option('--source <source>', 'which facts: expert (the only one listed)', 'expert')
    .addOption(kbOption())
    .option('--all', 'retired ones too')
    .addOption(jsonOption())
    .action(async (opts: KbFactsOptions) => cli.done(await cli.withApp('kb facts', (app) => kbFacts(app, opts, cli.print))));
  kb.command('retire')
    .description('stop using a fact (a new KB version; answers already given keep their citations)')
    .argument('<factId>', 'the fact number (candor kb facts)')
    .option('--as <name>', 'who retires it')
    .addOption(jsonOption())
    .action(async (factId: string, opts: Omit<KbRetireOptions, 'factId'>) =>
      cli.done(await cli.withApp('kb retire', (app) => kbRetire(app, { factId, ...opts }, cli.print))),
    );
  kb.command('confirm')
    .description('re-confirm an expert fact as it is, or edit its text: it is replaced by a new one confirmed now')
    .argument('<factId>', 'the fact number (candor kb facts)')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS for the fact’s KB)')
    .option('--text <text>', 'the new text (omit to re-confirm as it is)')
    .addOption(jsonOption())
    .action(async (factId: string, opts: Omit<KbConfirmOptions, 'factId'>) =>
      cli.done(await cli.withApp('kb confirm', (app) => kbConfirm(app, { factId, ...opts }, cli.print))),
    );
}
