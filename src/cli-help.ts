import { packageVersion } from './version.js';

/**
 * `candor <command> --help`: one page per command, printed without reading any
 * setting, so help works even where the configuration is still wrong.
 */
export const COMMAND_HELP: Readonly<Record<string, string>> = {
  start: `Usage: candor start

Ingests the example documents (examples/kb, found beside the installed code, whatever the working
directory) when the knowledge base is empty, then serves as \`candor serve\` does. The quick start.`,
  serve: `Usage: candor serve

HTTP server on HOST:PORT (default 127.0.0.1:3000):
  POST /api/ask      the JSON ask API            GET /healthz   200 while the store answers
  GET  /metrics      Prometheus text format      GET /          the console (CANDOR_CONSOLE_TOKEN or
  /slack/events      Slack (SLACK_BOT_TOKEN)                       CANDOR_CONSOLE_BASIC_AUTH)
  /api/messages      Teams (MICROSOFT_APP_ID)
Stops gracefully on SIGINT/SIGTERM (requests in flight finish, the store closes).`,
  migrate: `Usage: candor migrate

Applies pending database migrations (migrations/, under an advisory lock on PostgreSQL) and exits 0.
\`candor serve\` does the same at start; run this as a deployment's init step or Job so that replicas
start on a migrated schema and a failed migration stops the rollout, not the serving replicas.`,
  ingest: `Usage: candor ingest PATH... [--kb NAME] [--json]

Documents (.txt .md .html .pdf .docx) are split into facts; .jsonl lines {"id","text","source"?} are
taken as facts. Unchanged files change nothing; a changed file makes a new KB version.
  --kb NAME   knowledge base (default CANDOR_KB, "default")
  --json      one JSON summary on stdout
Exit code 1 when a file could not be read (the rest is stored).`,
  channels: `Usage: candor channels [--json]

Which knowledge bases answer where: each CANDOR_CHANNELS entry in order (Slack channel or "dm", Teams
conversation or team, or "personal"), with its KBs' versions and sizes, whether it answers every message or
only mentions, and its reply mode; then the default (CANDOR_KB) for direct messages and unmapped channels.
Exits 1 when an entry names a knowledge base that does not exist (serve refuses to start then).`,
  ask: `Usage: candor ask "QUESTION" [--kb NAME] [--json]

Answers from the knowledge base or refuses, saying why.
  --kb NAME   knowledge base (default CANDOR_KB)
  --json      the same object POST /api/ask returns
Exit code 0 for an answer and for a refusal; 1 for errors; 2 for usage errors.`,
  eval: `Usage:
  candor eval loo --kb NAME --questions FILE [--markdown FILE] [--behind FILE] [--json]
      leave-one-out: each question asked with the full KB and with its own fact left out;
      --behind: published model answers given without their fact (PolicyBench responses_with_labels),
      abstained by the model alone, behind the gate, and behind the gate and the grounding check
  candor eval detect --responses FILE [--json]
      the rule abstention detector over replies {"id","question","response","label"?}
  candor eval grounding --responses FILE [--markdown FILE] [--json]
      the checks after generation (lexical grounding; model entailment with CANDOR_LLM_ENTAILMENT) over
      answers {"id","question","response","context":[facts],"cited":[0-based]?,"supported"?}: unsupported
      answers flagged, supported ones passed, AUC of the support score; declining replies are left out
  candor eval follow-ups [--questions FILE] [--kb NAME] [--json]
      thread follow-ups {"previous","followUp","standalone","kind"} made standalone as typed, by the rule and
      by the model (when configured), each asked and held to the hand-written question (default: examples/questions/follow-ups.jsonl)
  candor eval generate --kb NAME [--per-fact N] [--categories LIST|all|none] [--per-category N] [--out FILE] [--json]
      test questions per fact and don't-know questions (needs a model)`,
  review: `Usage:
  candor review sample [--seed N] [--json]       pick interactions for review now
  candor review show ID [--json]                 a sample with the labelling criteria
  candor review label ID TASK LABEL --as NAME [--remove] [--json]
                                                 label from a terminal (NAME listed as cli:NAME in CANDOR_REVIEWERS)
  candor review import --annotator NAME --task abstention|factuality FILE [--json]
                                                 an outside annotator's labels`,
  judge: `Usage:
  candor judge add --name N --task T --criteria TEXT|@FILE [--outcomes a,b] [--model M]
      a judge spec (adding a name again makes its next version)
  candor judge list [--json]`,
  report: `Usage:
  candor report agreement [--task T] [--run] [--json]
      the latest judge–human agreement report (--run: make one now)
  candor report gaps [--kb NAME] [--days N] [--json]
      knowledge-base gaps: refused questions of the last N days (default 30) grouped into gaps, with
      counts and examples, so KB owners see what to add. Each gap has an id and a state: open, asked
      (posted to the KB's experts), answered (by an expert fact) or out_of_scope; with its askers and
      first/last asked. --json groups carry id, state, factId, answer, askers, firstAsked, lastAsked`,
  gaps: `Usage:
  candor gaps answer GAP_ID --text TEXT --as NAME [--kb NAME] [--json]
      answer a gap (ids: candor report gaps): the text becomes a fact of the gap's KB at once, in a
      new KB version, cited as "Answered by an expert on DATE"
  candor gaps dismiss GAP_ID --as NAME [--json]
      mark a gap out of scope ("not for the KB")
The same experts desk as the Slack and Teams buttons: NAME must be listed as "cli:NAME" among the
people of the gap's KB in CANDOR_EXPERTS. --kb, when given, must be the gap's KB. Askers who pressed
"Ask an expert" are told by the running server (at its start and every CANDOR_EXPERTS_DELIVER_MS).
Exit code 1 when nothing was closed: not an expert, no such gap, or already closed (it says by whom).`,
  kb: `Usage:
  candor kb facts --source expert [--kb NAME] [--all] [--json]
      the KB's expert answers, newest first: who gave each, when it was confirmed, and when it is
      due for re-confirmation (reconfirmDays in CANDOR_EXPERTS); --all lists retired ones too
  candor kb retire FACT_ID [--as NAME] [--json]
      stop using a fact (a new KB version; answers already given keep their citations)
  candor kb confirm FACT_ID --as NAME [--text TEXT] [--json]
      re-confirm an expert fact as it is, or edit its text (--text): the fact is replaced by a new
      one confirmed now; NAME must be listed as "cli:NAME" for the fact's KB in CANDOR_EXPERTS`,
};

/** The help page for a command, or null when there is no such command. */
export function commandHelp(command: string): string | null {
  return COMMAND_HELP[command] ?? null;
}

/**
 * Answers `--version`, `help [COMMAND]`, `--help` and `COMMAND --help|-h` before any setting is read;
 * undefined when the command line asks for something else. Exit codes as the CLI's: 0 done, 2 usage.
 */
export function helpOrVersion(
  command: string | undefined,
  rest: readonly string[],
  usageText: string,
  usage: (message: string) => number,
): number | undefined {
  const print = (text: string) => void process.stdout.write(`${text}\n`);
  const page = (name: string) => {
    const help = commandHelp(name);
    if (!help) return usage(`unknown command "${name}"`);
    print(help);
    return 0;
  };
  if (command === '--version' || command === '-v' || command === 'version') return (print(packageVersion()), 0);
  if (command === 'help' && rest[0]) return page(rest[0]);
  if (!command || command === 'help' || command === '--help' || command === '-h') return (print(usageText), command ? 0 : 2);
  if (rest.includes('--help') || rest.includes('-h')) return page(command);
  return undefined;
}
