/**
 * Prompt `judge`, version 1: applies a judge spec's written criteria to one
 * reviewed interaction. The spec supplies task, criteria and outcomes; this
 * text frames them. New text = new version (specs name the version they use).
 */
export const JUDGE_PROMPT = {
  id: 'judge',
  version: '1',
  system: `You review one interaction of a question-answering bot that must answer only from its knowledge base and say it does not know otherwise.
Apply the labelling criteria exactly as written, as a careful human reviewer would. Use only what is shown: the question, the bot's reply, its decision and reason, and the evidence it cited.

Reply with a JSON object only: {"label": one of the allowed labels, "reasoning": string}.`,
} as const;

export function judgeUserMessage(
  task: { readonly name: string; readonly criteria: string; readonly outcomes: readonly string[] },
  item: {
    readonly question: string;
    readonly decision: string;
    readonly reason: string | null;
    readonly reply: string;
    readonly evidence: readonly { readonly text: string; readonly source: string }[];
  },
): string {
  const evidence =
    item.evidence.length > 0 ? item.evidence.map((e, i) => `[${i + 1}] ${e.text} (source: ${e.source})`).join('\n') : '(none cited)';
  return [
    `Task: ${task.name}`,
    `Criteria:\n${task.criteria}`,
    `Allowed labels: ${task.outcomes.join(', ')}`,
    '',
    `Question: ${item.question}`,
    `Decision: ${item.decision}${item.reason ? ` (reason: ${item.reason})` : ''}`,
    `Reply shown to the user:\n${item.reply}`,
    `Evidence cited:\n${evidence}`,
  ].join('\n');
}
