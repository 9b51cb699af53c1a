import { join } from 'node:path';

import { llmSettings, reviewSettings, slackSettings, teamsSettings, type Problem } from './channel-settings.js';
import { consoleSettings } from './console-settings.js';
import { otelSettings } from './otel-settings.js';
import type { Settings } from './settings-schema.js';

/**
 * Settings grouped by concern, derived from the parsed environment; the Config
 * type is this function's result, so nothing restates the schema. Settings that
 * are wrong together (a signing secret without a bot token) are added to
 * `problems`, all of them, rather than thrown one at a time.
 */
export function deriveConfig(s: Settings, problems: Problem[]) {
  return {
    store: {
      databaseUrl: s.DATABASE_URL,
      dataDir: s.CANDOR_DATA_DIR,
      checkpointMs: s.CANDOR_EMBEDDED_CHECKPOINT_MS,
      checkpointWalMb: s.CANDOR_EMBEDDED_CHECKPOINT_WAL_MB,
    },
    kb: kbSettings(s),
    /** Per-file limits of `candor ingest` (IngestLimits): pass as `ingestPaths(…, { limits: config.ingest })`. */
    ingest: ingestLimits(s),
    /** Sources synced into KBs (`candor sources`): how often replicas look for due syncs, the pace and time limit of web requests, and when a document not seen since is stale. */
    sources: {
      pollMs: s.CANDOR_SOURCES_POLL_MS,
      paceMs: s.CANDOR_SOURCES_PACE_MS,
      timeoutMs: s.CANDOR_SOURCES_TIMEOUT_MS,
      staleDays: s.CANDOR_SOURCES_STALE_DAYS,
    },
    http: httpSettings(s),
    ask: askSettings(s),
    gate: gateSettings(s),
    telemetry: telemetrySettings(s),
    /** The console at `/` of `candor serve`: who may see it. */
    console: consoleSettings(s),
    logLevel: s.LOG_LEVEL,
    logFormat: s.LOG_FORMAT,
    /** The durable inbox: how long a worker's claim lasts, how often idle workers look, tries per question, answers at once. */
    inbox: {
      leaseMs: s.CANDOR_INBOX_LEASE_MS,
      pollMs: s.CANDOR_INBOX_POLL_MS,
      maxAttempts: s.CANDOR_INBOX_MAX_ATTEMPTS,
      concurrency: s.CANDOR_INBOX_CONCURRENCY,
    },
    /** NODE_ENV=production: warn at start about development defaults (the user-hash salt). */
    production: s.NODE_ENV === 'production',
    /** Null when the Slack channel is off. */
    slack: slackSettings(s, problems),
    /** Null when the Teams channel is off. */
    teams: teamsSettings(s, problems),
    /** Null in extractive mode (no model configured). */
    llm: llmSettings(s, problems),
    review: reviewSettings(s, problems),
    /** Experts per KB (CANDOR_EXPERTS): where questions for them go and who may answer; empty when none. */
    experts: {
      kbs: s.CANDOR_EXPERTS ?? [],
      deliverMs: s.CANDOR_EXPERTS_DELIVER_MS,
    },
    /** Conversations → KBs (CANDOR_CHANNELS), tried in order; CANDOR_KB answers where none matches. */
    channels: s.CANDOR_CHANNELS ?? [],
    /** The console's public address (no trailing slash), for links in chat cards; undefined: no links. */
    publicUrl: s.CANDOR_PUBLIC_URL?.replace(/\/+$/, ''),
    /** Diversity filtering of generated questions: the similarity at which a question counts as a near-duplicate. */
    generate: {
      keywordSimilarity: s.CANDOR_GEN_KEYWORD_SIMILARITY,
      semanticSimilarity: s.CANDOR_GEN_SEMANTIC_SIMILARITY,
      lexicalSimilarity: s.CANDOR_GEN_LEXICAL_SIMILARITY,
    },
  };
}

/** The knowledge bases: the default one, and how their in-memory indexes are served and their facts read. */
function kbSettings(s: Settings) {
  return {
    defaultName: s.CANDOR_KB,
    /** Serving: how long an ask waits for a KB's first index before a 503 "warming up". */
    indexWaitMs: s.CANDOR_INDEX_WAIT_MS,
    /** Serving: how often new KB versions are looked for and their index built ahead of the next ask. */
    indexRefreshMs: s.CANDOR_INDEX_REFRESH_MS,
    /** Serving: where built indexes are kept for the next start (CANDOR_DATA_DIR/index); null: not kept (or a memory:// store). */
    indexSnapshotDir: s.CANDOR_INDEX_SNAPSHOTS && !s.CANDOR_DATA_DIR.startsWith('memory://') ? join(s.CANDOR_DATA_DIR, 'index') : null,
    factExtraction: s.CANDOR_FACT_EXTRACTION,
    /** Folder → base URL for documents' links: pass as `ingestPaths(…, { sourceUrls: config.kb.sourceUrls })`. */
    sourceUrls: s.CANDOR_SOURCE_URLS ?? {},
  };
}

function ingestLimits(s: Settings) {
  return {
    maxFileBytes: s.CANDOR_INGEST_MAX_FILE_BYTES,
    maxDocxBytes: s.CANDOR_INGEST_MAX_DOCX_BYTES,
    maxPdfPages: s.CANDOR_INGEST_MAX_PDF_PAGES,
    maxParseMb: s.CANDOR_INGEST_MAX_PARSE_MB,
    parseTimeoutMs: s.CANDOR_INGEST_PARSE_TIMEOUT_MS,
  };
}

function httpSettings(s: Settings) {
  return {
    host: s.HOST,
    port: s.PORT,
    maxBodyBytes: s.CANDOR_MAX_BODY_BYTES,
    /** Bearer token POST /api/ask requires; undefined: open. */
    apiToken: s.CANDOR_API_TOKEN,
    /** Bearer token GET /metrics requires; undefined: open. */
    metricsToken: s.CANDOR_METRICS_TOKEN,
  };
}

/** Retrieval and citing for one question. */
function askSettings(s: Settings) {
  return {
    maxQuestionChars: s.CANDOR_MAX_QUESTION_CHARS,
    topK: s.CANDOR_TOP_K,
    maxCitations: s.CANDOR_MAX_CITATIONS,
    citeShare: s.CANDOR_CITE_SHARE,
    /** A runner-up from another passage is cited only when it covers at least this share of what the best fact covers. */
    citeCoverage: s.CANDOR_CITE_COVERAGE,
  };
}

/** The gate's threshold and which of its checks run. */
function gateSettings(s: Settings) {
  return {
    /** Undefined: the model's threshold. */
    minAnswerability: s.CANDOR_MIN_ANSWERABILITY,
    checkEntities: s.CANDOR_CHECK_ENTITIES,
    checkAnswerType: s.CANDOR_CHECK_ANSWER_TYPE,
    relevanceSignal: s.CANDOR_RELEVANCE_SIGNAL,
    minCosine: s.CANDOR_MIN_COSINE,
  };
}

/** Traces: where they go (CANDOR_TRACE_EXPORTER, else the OTEL_* variables), what they carry, and the SDK's settings. */
function telemetrySettings(s: Settings) {
  return {
    exporter:
      s.CANDOR_TRACE_EXPORTER ??
      s.OTEL_TRACES_EXPORTER ??
      (s.OTEL_EXPORTER_OTLP_ENDPOINT || s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : 'none'),
    otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: s.OTEL_SERVICE_NAME ?? s.OTEL_RESOURCE_ATTRIBUTES['service.name'] ?? 'candor',
    traceContent: s.CANDOR_TRACE_CONTENT,
    userHashSalt: s.CANDOR_USER_HASH_SALT,
    ...otelSettings(s),
  };
}

/** Read-only all the way down: configuration is read, never changed. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
