/** Attribute and instrument names, in one place (as OpenTelemetry's semconv does). */
export const ATTR = {
  channel: 'candor.channel',
  decision: 'candor.decision',
  reason: 'candor.reason',
  topScore: 'candor.top_score',
  evidenceCount: 'candor.evidence_count',
  kbName: 'candor.kb.name',
  kbVersion: 'candor.kb.version',
  question: 'candor.question',
  questionLength: 'candor.question.length',
  userHash: 'candor.user.hash',
  layer: 'candor.gate.layer',
  layerPass: 'candor.gate.pass',
  layerScore: 'candor.gate.score',
  layerThreshold: 'candor.gate.threshold',
  hits: 'candor.retrieve.hits',
  topK: 'candor.retrieve.top_k',
  excluded: 'candor.retrieve.excluded',
  answerMode: 'candor.answer.mode',
  vector: 'candor.retrieve.vector',
  llmCallAvoided: 'candor.llm.call_avoided',
} as const;

export const SPAN = {
  ask: 'candor.ask',
  retrieve: 'candor.retrieve',
  gateLayer: (layer: string) => `candor.gate.${layer}`,
  answer: 'candor.answer',
  record: 'candor.record',
} as const;
