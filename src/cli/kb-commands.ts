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
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption } from './cli-options.js';
import { count } from './format.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'config'>;

export interface KbFactsArgs {
  /** ["kb", "facts" | "retire" | "confirm", FACT_ID?]. */
  readonly positionals: readonly string[];
  readonly values: {
    kb?: string | undefined;
    source?: string | undefined;
    all?: boolean | undefined;
    as?: string | undefined;
    text?: string | undefined;
    json?: boolean | undefined;
  };
}

const USAGE =
  'Usage: candor kb facts --source expert [--kb NAME] [--all] [--json] | candor kb retire FACT_ID [--as NAME] [--json] | ' +
  'candor kb confirm FACT_ID --as NAME [--text TEXT] [--json]';

/**
 * `candor kb facts|retire|confirm`: the expert facts of a KB, and retiring,
 * editing or re-confirming one (each change is a new KB version, so answers
 * already given keep naming the text they cited).
 */
export async function kbFactsCommand(app: CommandServices, args: KbFactsArgs, out: (text: string) => void): Promise<number> {
  const [, sub, idText] = args.positionals;
  const { values } = args;
  if (sub === 'facts') {
    if (values.source !== undefined && values.source !== 'expert')
      throw new CandorError('option_invalid', `kb facts lists expert answers only (--source expert). ${USAGE}`);
    const kb = values.kb ?? app.config.kb.defaultName;
    const list = await listExpertFacts(app.store.db, {
      kb,
      includeRetired: values.all === true,
      reconfirmDays: app.config.experts.kbs.find((e) => e.kb === kb)?.reconfirmDays,
      now: new Date(),
    });
    out(values.json ? JSON.stringify({ kb, source: EXPERT_SOURCE_PREFIX, facts: list }) : formatFacts(kb, list, values.all === true));
    return 0;
  }
  if (sub !== 'retire' && sub !== 'confirm') throw new CandorError('option_invalid', `kb supports: facts, retire, confirm. ${USAGE}`);
  const factId = Number(idText);
  if (!idText || !Number.isSafeInteger(factId) || factId < 1)
    throw new CandorError('option_invalid', `FACT_ID must be a fact's number (see candor kb facts --source expert). ${USAGE}`);
  const name = values.as?.trim();
  if (name !== undefined && !/^\S{1,64}$/.test(name)) throw new CandorError('option_invalid', '--as NAME: your name, one word');
  if (sub === 'retire') {
    const by = name ? `cli:${name}` : 'cli';
    const retired = await retireFact(app.store.db, factId, by);
    out(
      values.json
        ? JSON.stringify({ outcome: 'retired', factId, ...retired, by })
        : `Fact ${factId} retired from "${retired.kb}" (now version ${retired.version}) by ${by}; the bot no longer answers with it.`,
    );
    return 0;
  }
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
  const edited = values.text !== undefined;
  const revised = await reviseExpertFact(app.store.db, factId, {
    ...(edited ? { text: values.text } : {}),
    expert: `cli:${name}`,
    name,
  });
  const outcome = edited ? 'edited' : 'confirmed';
  out(
    values.json
      ? JSON.stringify({ outcome, replaced: factId, kb: fact.kb, ...revised, by: `cli:${name}` })
      : `Fact ${factId} ${edited ? 'edited' : 're-confirmed'} by cli:${name}: it is now fact ${revised.factId} of "${fact.kb}" (version ${revised.version}).`,
  );
  return 0;
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
  const run = (purpose: string, positionals: string[], values: KbFactsArgs['values']) =>
    cli.withApp(purpose, (app) => kbFactsCommand(app, { positionals: ['kb', ...positionals], values }, cli.print));
  kb.command('list')
    .description('every knowledge base with its version, documents and facts; the default one (CANDOR_KB) marked')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) =>
      cli.done(
        await cli.withApp('kb list', async (app) => {
          const kbs = await listKbs(app.store.db);
          const defaultKb = app.config.kb.defaultName;
          cli.print(opts.json ? JSON.stringify({ default: defaultKb, kbs }) : formatKbList(kbs, defaultKb));
          return 0;
        }),
      ),
    );
  kb.command('facts')
    .description("the KB's expert answers, newest first: who gave each, when confirmed, when due for re-confirmation")
    .option('--source <source>', 'which facts: expert (the only one listed)', 'expert')
    .addOption(kbOption())
    .option('--all', 'retired ones too')
    .addOption(jsonOption())
    .action(async (opts: KbFactsArgs['values']) => cli.done(await run('kb facts', ['facts'], opts)));
  kb.command('retire')
    .description('stop using a fact (a new KB version; answers already given keep their citations)')
    .argument('<factId>', 'the fact number (candor kb facts)')
    .option('--as <name>', 'who retires it')
    .addOption(jsonOption())
    .action(async (id: string, opts: KbFactsArgs['values']) => cli.done(await run('kb retire', ['retire', id], opts)));
  kb.command('confirm')
    .description('re-confirm an expert fact as it is, or edit its text: it is replaced by a new one confirmed now')
    .argument('<factId>', 'the fact number (candor kb facts)')
    .requiredOption('--as <name>', 'your expert name (cli:NAME in CANDOR_EXPERTS for the fact’s KB)')
    .option('--text <text>', 'the new text (omit to re-confirm as it is)')
    .addOption(jsonOption())
    .action(async (id: string, opts: KbFactsArgs['values']) => cli.done(await run('kb confirm', ['confirm', id], opts)));
}
