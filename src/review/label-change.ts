/** Who labelled what, how: one label as the stores and the evaluation events see it. */
export type LabelVia = 'reaction' | 'button' | 'terminal' | 'console' | 'judge' | 'import';

export interface LabelChange {
  readonly sampleId: number;
  readonly task: string;
  /** "slack:U123", "teams:<id>", "cli:<name>", "console:<name>", "import:<name>", "llm:<spec>@<version>" or "rule:<name>@<version>". */
  readonly annotator: string;
  readonly value: string;
  readonly via: LabelVia;
  /** The channel's event id: a redelivered event is recorded once. */
  readonly eventId?: string | undefined;
  /** Why a judge gave the label (its reasoning), kept for the disagreement list; people's labels have none. */
  readonly explanation?: string | undefined;
}
