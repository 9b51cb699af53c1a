/** Attribute and instrument names, in one place (as OpenTelemetry's semconv does). */
export const ATTR = {
  channel: 'candor.channel',
  decision: 'candor.decision',
  /** high | medium (answered with a caveat) | low (refused). */
  confidence: 'candor.confidence',
  /** The model answer's grounding support in [0, 1] (checkGrounding), when one was checked. */
  groundingSupport: 'candor.grounding.support',
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
  /** The stored interaction (its row id) a span or event is about. */
  interactionId: 'candor.interaction.id',
  /** Who gave an evaluation: a judge's id (`llm:<spec>@<version>`, `rule:<name>@<version>`) or a person's hashed id (`slack:<hash>`). */
  evaluationAnnotator: 'candor.evaluation.annotator',
  /** human | llm_judge | rule_judge | asker */
  evaluationAnnotatorType: 'candor.evaluation.annotator.type',
  /** How a label was given: reaction | button | terminal | console | judge | feedback. */
  evaluationVia: 'candor.evaluation.via',
  /** set | remove (a label withdrawn: a removed reaction). */
  evaluationAction: 'candor.evaluation.action',
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
  /** A label, judge verdict or asker feedback, emitted in the trace of the interaction it is about. */
  evaluation: 'candor.evaluation',
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
  /** The model endpoint's host and port (general conventions; GenAI client spans carry them). */
  serverAddress: 'server.address',
  serverPort: 'server.port',
  /** The `gen_ai.evaluation.result` event's attributes. */
  evaluationName: 'gen_ai.evaluation.name',
  evaluationScoreValue: 'gen_ai.evaluation.score.value',
  evaluationScoreLabel: 'gen_ai.evaluation.score.label',
  evaluationExplanation: 'gen_ai.evaluation.explanation',
} as const;

/** GenAI semantic conventions' event names. */
export const GEN_AI_EVENT = { evaluationResult: 'gen_ai.evaluation.result' } as const;

/** Metric (instrument) names; Prometheus shows them with dots as underscores (counters with `_total`; see PROMETHEUS_NAME). */
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
  llmCost: 'candor.llm.cost',
  inboxPending: 'candor.inbox.pending',
  inboxOldestAge: 'candor.inbox.oldest_age',
  inboxRetries: 'candor.inbox.retries',
  inboxRateLimitWait: 'candor.inbox.rate_limit_wait',
  deliveriesFailed: 'candor.deliveries.failed',
  reviewBacklog: 'candor.review.backlog',
  labels: 'candor.labels',
  sourceSyncs: 'candor.source.syncs',
  sourceLastSuccess: 'candor.source.last_success_timestamp',
  sourcePeriod: 'candor.source.period',
  sourceDocuments: 'candor.source.documents',
} as const;

/**
 * Streams exported under a name that carries their unit. This SDK's Prometheus exporter does not append
 * units (as the OTel → Prometheus compatibility rules would), so the metrics whose unit a query must know
 * are renamed by a view: candor_ask_duration_seconds, candor_inbox_oldest_age_seconds, candor_llm_cost_usd_total.
 */
export const PROMETHEUS_NAME: Readonly<Record<string, string>> = {
  [METRIC.askDuration]: 'candor.ask.duration_seconds',
  [METRIC.inboxOldestAge]: 'candor.inbox.oldest_age_seconds',
  [METRIC.llmCost]: 'candor.llm.cost_usd',
  [METRIC.sourceLastSuccess]: 'candor.source.last_success_timestamp_seconds',
  [METRIC.sourcePeriod]: 'candor.source.period_seconds',
  [METRIC.inboxRateLimitWait]: 'candor.inbox.rate_limit_wait_seconds',
};

/** Meter and tracer names (the instrumentation scopes). */
export const SCOPE = { candor: 'candor', runtime: 'candor.runtime' } as const;
