import type { Services } from '../ask/services.js';
import { readLooQuestions, runLeaveOneOut } from './leave-one-out.js';
import { behindReport, formatBehind, readPublishedAnswers, renderBehindMarkdown } from './loo-behind.js';
import { extendLooReport, formatCategories } from './loo-categories.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'ask' | 'indexes'>;

/** `eval loo`'s options, as the command line parses them. */
export interface LooOptions {
  readonly kb: string;
  /** The questions file (.jsonl, the eval loo format). */
  readonly questions: string;
  /** Also write the report as Markdown to this file. */
  readonly markdown?: string | undefined;
  readonly json?: boolean | undefined;
  /** Published model answers given without their fact (PolicyBench responses_with_labels), to report behind the gate. */
  readonly behind?: string | undefined;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** `candor eval loo`: leave-one-out over a questions file, as one JSON object or a few lines of text. */
export async function evalLoo(
  app: CommandServices,
  args: LooOptions,
  print: (text: string) => void,
  progress: (message: string) => void,
): Promise<number> {
  const questions = readLooQuestions(args.questions);
  const published = args.behind === undefined ? undefined : { file: args.behind, answers: readPublishedAnswers(args.behind) };
  const report = await runLeaveOneOut(app, args.kb, questions, (done, total) => {
    if (done % 25 === 0 || done === total) progress(`asked ${done}/${total} questions (twice each)`);
  });
  const s = report.summary;
  const behind = published && behindReport(published, args.kb, report, await factTexts(app, args.kb));
  const extended = extendLooReport(report, questions, {
    kb: args.kb,
    questionsFile: args.questions,
    markdown: args.markdown,
    markdownAppendix: behind && renderBehindMarkdown(behind),
  });
  print(
    args.json
      ? JSON.stringify(behind ? { ...extended, behind } : extended)
      : `n=${s.n}  full KB answered=${pct(s.fullAnswered)} (with own fact ${pct(s.fullAnsweredWithFact)})  leave-one-out abstained=${pct(s.looAbstained)}\n` +
          (s.unanswerable ? `unanswerable questions: ${s.unanswerable.n}, abstained=${pct(s.unanswerable.abstained)}\n` : '') +
          `full-KB refusals by: ${JSON.stringify(s.fullRefusedBy)}\nleave-one-out refusals by: ${JSON.stringify(s.looRefusedBy)}\n${formatCategories(extended.categories)}` +
          (behind ? `\n${formatBehind(behind)}` : ''),
  );
  return 0;
}

/** The KB's fact texts by external id: the evidence a published answer was given. */
async function factTexts(app: CommandServices, kb: string): Promise<(externalId: string) => string | undefined> {
  const byId = new Map<string, string>();
  for (const fact of (await app.indexes.get(kb)).allFacts()) if (fact.externalId !== null) byId.set(fact.externalId, fact.text);
  return (externalId) => byId.get(externalId);
}
