/** Attribute and instrument names, in one place (as OpenTelemetry's semconv does). */
export const ATTR = {
  channel: 'candor.channel',
  decision: 'candor.decision',
  /** high | medium (answered with a caveat) | low (refused). */
  confidence: 'candor.confidence',
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
  answerability: 'candor.answerability.score',
  answerabilityThreshold: 'candor.answerability.threshold',
  answerabilityThresholdSource: 'candor.answerability.threshold_source',
  gateModel: 'candor.answerability.model',
  /** Chat events: the channel's event id, whether it was a redelivery, Slack's retry number, the inbox try. */
  eventId: 'candor.event.id',
  eventDuplicate: 'candor.event.duplicate',
  /** How a chat question was read with its thread: 'none' | 'as_asked' | 'rewritten' | 'borrowed' | 'not_a_question'. */
  followUp: 'candor.follow_up',
  eventRetryNum: 'candor.event.retry_num',
  inboxAttempt: 'candor.inbox.attempt',
  slackDirect: 'candor.slack.direct',
  teamsPersonal: 'candor.teams.personal',
  /** One attribute per answerability feature: `candor.answerability.feature.<snake_case name>`. */
  answerabilityFeature: (name: string) => `candor.answerability.feature.${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`,
} as const;

export const SPAN = {
  ask: 'candor.ask',
  retrieve: 'candor.retrieve',
  gateLayer: (layer: string) => `candor.gate.${layer}`,
  answer: 'candor.answer',
  record: 'candor.record',
  claim: 'candor.claim',
  followUp: 'candor.follow_up',
  deliver: 'candor.deliver',
  /** The root span of one chat question: `candor.slack.message`, `candor.teams.message`. */
  chatMessage: (channel: string) => `candor.${channel}.message`,
} as const;

/** OpenTelemetry GenAI semantic conventions (semantic-conventions-genai) used on model calls. */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  outputType: 'gen_ai.output.type',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  tokenType: 'gen_ai.token.type',
  completion: 'gen_ai.completion',
} as const;

/** Metric (instrument) names; Prometheus shows them with dots as underscores and the unit appended. */
export const METRIC = {
  asks: 'candor.asks',
  askDuration: 'candor.ask.duration',
  llmCallsAvoided: 'candor.llm.calls_avoided',
  judgeAgreement: 'candor.judge.agreement',
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  processErrors: 'candor.process.errors',
  feedback: 'candor.feedback',
  expertRequests: 'candor.expert.requests',
  expertAnswerTime: 'candor.expert.answer_time',
  gapsOpen: 'candor.gaps.open',
  gapsAnsweredShare: 'candor.gaps.answered_share',
} as const;

/** Meter and tracer names (the instrumentation scopes). */
export const SCOPE = { candor: 'candor', runtime: 'candor.runtime' } as const;
