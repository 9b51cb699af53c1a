import { readFileSync } from 'node:fs';
import { z } from 'zod';

import { withEmoji } from './core/review/review-tasks.js';
import { parseCron } from './core/schedule/cron.js';
import { CandorError } from './errors.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const fraction = z.coerce.number().min(0).max(1);

/**
 * Every setting, keyed by its environment variable so that an error names the
 * variable a person has to fix. Defaults are the documented ones (README).
 */
export const settingsSchema = z.object({
  CANDOR_DATA_DIR: z.string().min(1).default('./.candor'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  CANDOR_KB: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'expected a name of letters, digits, _ . -')
    .default('default'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  CANDOR_MAX_QUESTION_CHARS: z.coerce.number().int().min(10).max(100_000).default(2000),
  CANDOR_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(65_536),
  CANDOR_TOP_K: z.coerce.number().int().min(1).max(50).default(5),
  CANDOR_MAX_CITATIONS: z.coerce.number().int().min(1).max(10).default(3),
  CANDOR_CITE_SHARE: fraction.default(0.5),
  CANDOR_MIN_RELEVANCE: fraction.default(0.3),
  CANDOR_MIN_COVERAGE: fraction.default(0.45),
  CANDOR_MIN_MARGIN: fraction.default(0.2),
  CANDOR_CHECK_ENTITIES: bool.default(true),
  CANDOR_CHECK_ANSWER_TYPE: bool.default(true),
  CANDOR_RELEVANCE_SIGNAL: z.enum(['lexical', 'cosine']).default('lexical'),
  CANDOR_MIN_COSINE: fraction.default(0.5),
  CANDOR_TRACE_CONTENT: bool.default(false),
  CANDOR_TRACE_EXPORTER: z.enum(['none', 'console', 'otlp']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('candor'),
  CANDOR_USER_HASH_SALT: z.string().min(1).default('candor'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // Slack: on when SLACK_BOT_TOKEN is set (HTTP mode needs the signing secret, Socket Mode the app token).
  SLACK_BOT_TOKEN: z
    .string()
    .regex(/^xox[bp]-/, 'expected a bot token (xoxb-…)')
    .optional(),
  SLACK_SIGNING_SECRET: z.string().min(8, 'expected the signing secret from the Slack app settings').optional(),
  SLACK_APP_TOKEN: z
    .string()
    .regex(/^xapp-/, 'expected an app-level token (xapp-…)')
    .optional(),
  SLACK_API_URL: z.url().default('https://slack.com/api/'),
  // Teams: on when MICROSOFT_APP_ID is set, or anonymously (development only) with CANDOR_TEAMS_ALLOW_ANONYMOUS.
  MICROSOFT_APP_ID: z.string().min(1).optional(),
  MICROSOFT_APP_PASSWORD: z.string().min(1).optional(),
  MICROSOFT_APP_TENANT_ID: z.string().min(1).optional(),
  MICROSOFT_APP_TYPE: z.enum(['MultiTenant', 'SingleTenant', 'UserAssignedMSI']).default('MultiTenant'),
  CANDOR_TEAMS_ALLOW_ANONYMOUS: bool.default(false),
  // LLM: OpenAI (OPENAI_API_KEY), any OpenAI-compatible server (OPENAI_BASE_URL), or Azure OpenAI (AZURE_OPENAI_*).
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  AZURE_OPENAI_ENDPOINT: z.url().optional(),
  AZURE_OPENAI_API_KEY: z.string().min(1).optional(),
  AZURE_OPENAI_DEPLOYMENT: z.string().min(1).optional(),
  AZURE_OPENAI_API_VERSION: z.string().min(1).default('2024-10-21'),
  CANDOR_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  CANDOR_JUDGE_MODEL: z.string().min(1).optional(),
  CANDOR_EMBEDDING_MODEL: z.string().min(1).optional(),
  CANDOR_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  CANDOR_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  CANDOR_LLM_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  CANDOR_LLM_STRUCTURED: z.enum(['auto', 'json_schema', 'json_object']).default('auto'),
  CANDOR_FACT_EXTRACTION: z.enum(['sentences', 'llm']).default('sentences'),
  CANDOR_LLM_ENTAILMENT: bool.default(false),
  // Review and agreement.
  CANDOR_REVIEWERS: z.string().default(''),
  CANDOR_REVIEW_SLACK_CHANNEL: z
    .string()
    .regex(/^[CG][A-Z0-9]{2,}$/, 'expected a Slack channel id (C…)')
    .optional(),
  CANDOR_REVIEW_TEAMS_CONVERSATION: z
    .string()
    .regex(/^https?:\/\/[^|]+\|.+$/, 'expected "serviceUrl|conversationId" of the Teams channel or chat for review cards')
    .optional(),
  CANDOR_REVIEW_ANSWERED_RATE: fraction.default(0.05),
  CANDOR_REVIEW_ABSTAINED_RATE: fraction.default(0.2),
  CANDOR_REVIEW_MAX_PER_RUN: z.coerce.number().int().min(1).max(10_000).default(20),
  CANDOR_REVIEW_EMOJI: z
    .string()
    .regex(
      /^(\s*[a-z0-9_+-]+=(abstention|factuality|dontknowness):[a-z0-9_]+\s*)(,\s*[a-z0-9_+-]+=(abstention|factuality|dontknowness):[a-z0-9_]+\s*)*$/,
      'expected emoji=task:label pairs, e.g. "thumbsup=abstention:correct,thumbsdown=abstention:incorrect"',
    )
    .optional(),
  CANDOR_AGREEMENT_CRON: z.string().min(1).default('0 6 * * *'),
  CANDOR_REVIEW_CRON: z.string().min(1).default('0 * * * *'),
});

export type Settings = z.infer<typeof settingsSchema>;

/** Typed configuration, grouped by concern. */
export interface Config {
  readonly store: { readonly databaseUrl: string | undefined; readonly dataDir: string };
  readonly kb: { readonly defaultName: string; readonly factExtraction: 'sentences' | 'llm' };
  readonly http: { readonly host: string; readonly port: number; readonly maxBodyBytes: number };
  readonly ask: { readonly maxQuestionChars: number; readonly topK: number; readonly maxCitations: number; readonly citeShare: number };
  readonly gate: {
    readonly minRelevance: number;
    readonly minCoverage: number;
    readonly minMargin: number;
    readonly checkEntities: boolean;
    readonly checkAnswerType: boolean;
    readonly relevanceSignal: 'lexical' | 'cosine';
    readonly minCosine: number;
  };
  readonly telemetry: {
    readonly exporter: 'none' | 'console' | 'otlp';
    readonly otlpEndpoint: string | undefined;
    readonly serviceName: string;
    readonly traceContent: boolean;
    readonly userHashSalt: string;
  };
  readonly logLevel: Settings['LOG_LEVEL'];
  /** Null when the Slack channel is off. */
  readonly slack: SlackSettings | null;
  /** Null when the Teams channel is off. */
  readonly teams: TeamsSettings | null;
  /** Null in extractive mode (no model configured). */
  readonly llm: LlmSettings | null;
  readonly review: ReviewSettings;
}

export interface ReviewSettings {
  /** Who counts as a reviewer: platform user ids, optionally prefixed ("slack:U123", "teams:<aad id>", "cli:name"), or a Slack user group ("slack:group:S123"). */
  readonly reviewers: readonly string[];
  readonly slackChannel: string | undefined;
  /** "serviceUrl|conversationId" for Teams review cards. */
  readonly teamsConversation: string | undefined;
  readonly answeredRate: number;
  readonly abstainedRate: number;
  readonly maxPerRun: number;
  /** Emoji overrides: emoji name → task and label. */
  readonly emoji: Readonly<Record<string, { readonly task: string; readonly value: string }>>;
  readonly agreementCron: string;
  /** When to sample new interactions and post their cards. */
  readonly reviewCron: string;
}

type Env = Record<string, string | undefined>;

/**
 * Reads settings from the environment, over an optional JSON file named by
 * CANDOR_CONFIG (the environment wins). Throws a CandorError naming every bad variable.
 */
export function loadConfig(env: Env = process.env): Config {
  const merged = { ...readConfigFile(env.CANDOR_CONFIG), ...withoutEmpty(env) };
  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = merged[name];
      const shown = value === undefined ? 'missing' : isSecret(name) ? 'given' : `got ${JSON.stringify(value)}`;
      return `  ${name}: ${issue.message} (${shown})`;
    });
    throw new CandorError('config_invalid', `Invalid configuration:\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data);
}

export function toConfig(s: Settings): Config {
  return {
    store: { databaseUrl: s.DATABASE_URL, dataDir: s.CANDOR_DATA_DIR },
    kb: { defaultName: s.CANDOR_KB, factExtraction: s.CANDOR_FACT_EXTRACTION },
    http: { host: s.HOST, port: s.PORT, maxBodyBytes: s.CANDOR_MAX_BODY_BYTES },
    ask: {
      maxQuestionChars: s.CANDOR_MAX_QUESTION_CHARS,
      topK: s.CANDOR_TOP_K,
      maxCitations: s.CANDOR_MAX_CITATIONS,
      citeShare: s.CANDOR_CITE_SHARE,
    },
    gate: {
      minRelevance: s.CANDOR_MIN_RELEVANCE,
      minCoverage: s.CANDOR_MIN_COVERAGE,
      minMargin: s.CANDOR_MIN_MARGIN,
      checkEntities: s.CANDOR_CHECK_ENTITIES,
      checkAnswerType: s.CANDOR_CHECK_ANSWER_TYPE,
      relevanceSignal: s.CANDOR_RELEVANCE_SIGNAL,
      minCosine: s.CANDOR_MIN_COSINE,
    },
    telemetry: {
      exporter: s.CANDOR_TRACE_EXPORTER ?? (s.OTEL_EXPORTER_OTLP_ENDPOINT ? 'otlp' : 'none'),
      otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: s.OTEL_SERVICE_NAME,
      traceContent: s.CANDOR_TRACE_CONTENT,
      userHashSalt: s.CANDOR_USER_HASH_SALT,
    },
    logLevel: s.LOG_LEVEL,
    slack: slackSettings(s),
    teams: teamsSettings(s),
    llm: llmSettings(s),
    review: reviewSettings(s),
  };
}

function readConfigFile(path: string | undefined): Env {
  if (!path) return {};
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new CandorError(
      'config_invalid',
      `CANDOR_CONFIG: cannot read ${path}: ${(cause as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      { cause },
    );
  }
  try {
    raw = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error, which may be a secret: report only where.
    throw new CandorError('config_invalid', `CANDOR_CONFIG: ${path} is not valid JSON${jsonErrorPosition(text)}`);
  }
  const file = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).safeParse(raw);
  if (!file.success) throw new CandorError('config_invalid', `CANDOR_CONFIG: ${path} must be a flat JSON object of settings`);
  return Object.fromEntries(Object.entries(file.data).map(([k, v]) => [k, String(v)]));
}

/** Unset and empty variables both mean "use the default". */
function withoutEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
}

function isSecret(name: string): boolean {
  return /TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL/i.test(name);
}

export interface SlackSettings {
  readonly botToken: string;
  /** Absent in Socket Mode. */
  readonly signingSecret: string | undefined;
  /** Set: Socket Mode; absent: HTTP events at /slack/events. */
  readonly appToken: string | undefined;
  readonly apiUrl: string;
}

export interface TeamsSettings {
  /** Undefined only when anonymous development mode is on. */
  readonly appId: string | undefined;
  readonly appPassword: string | undefined;
  readonly tenantId: string | undefined;
  readonly appType: Settings['MICROSOFT_APP_TYPE'];
  readonly allowAnonymous: boolean;
}

export interface LlmSettings {
  readonly provider: 'openai' | 'openai-compatible' | 'azure';
  readonly apiKey: string | undefined;
  readonly baseUrl: string | undefined;
  readonly azure: { readonly endpoint: string; readonly deployment: string; readonly apiVersion: string } | undefined;
  readonly chatModel: string;
  readonly judgeModel: string;
  readonly embeddingModel: string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly concurrency: number;
  /** How to ask for JSON: a JSON schema (structured outputs), plain JSON mode, or schema first with a fallback. */
  readonly structured: Settings['CANDOR_LLM_STRUCTURED'];
  /** A second grounding check: the model judges whether the cited facts entail the answer. */
  readonly entailment: boolean;
}

/** An LLM is configured by any of: OPENAI_API_KEY, OPENAI_BASE_URL, AZURE_OPENAI_ENDPOINT. */
function llmSettings(s: Settings): LlmSettings | null {
  const common = {
    chatModel: s.CANDOR_CHAT_MODEL,
    judgeModel: s.CANDOR_JUDGE_MODEL ?? s.CANDOR_CHAT_MODEL,
    embeddingModel: s.CANDOR_EMBEDDING_MODEL,
    timeoutMs: s.CANDOR_LLM_TIMEOUT_MS,
    maxRetries: s.CANDOR_LLM_MAX_RETRIES,
    concurrency: s.CANDOR_LLM_CONCURRENCY,
    structured: s.CANDOR_LLM_STRUCTURED,
    entailment: s.CANDOR_LLM_ENTAILMENT,
  };
  if (s.AZURE_OPENAI_ENDPOINT) {
    const missing = [
      ...(s.AZURE_OPENAI_API_KEY ? [] : ['  AZURE_OPENAI_API_KEY: missing (the key of the Azure OpenAI resource)']),
      ...(s.AZURE_OPENAI_DEPLOYMENT ? [] : ['  AZURE_OPENAI_DEPLOYMENT: missing (the name of the chat model deployment)']),
    ];
    if (missing.length > 0) throw new CandorError('config_invalid', `Invalid configuration:\n${missing.join('\n')}`);
    return {
      provider: 'azure',
      apiKey: s.AZURE_OPENAI_API_KEY,
      baseUrl: undefined,
      azure: { endpoint: s.AZURE_OPENAI_ENDPOINT, deployment: s.AZURE_OPENAI_DEPLOYMENT as string, apiVersion: s.AZURE_OPENAI_API_VERSION },
      ...common,
    };
  }
  if (s.OPENAI_BASE_URL)
    return { provider: 'openai-compatible', apiKey: s.OPENAI_API_KEY, baseUrl: s.OPENAI_BASE_URL, azure: undefined, ...common };
  if (s.OPENAI_API_KEY) return { provider: 'openai', apiKey: s.OPENAI_API_KEY, baseUrl: undefined, azure: undefined, ...common };
  if (s.CANDOR_FACT_EXTRACTION === 'llm') {
    throw new CandorError(
      'config_invalid',
      'Invalid configuration:\n  CANDOR_FACT_EXTRACTION: "llm" needs a model (set OPENAI_API_KEY, OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT)',
    );
  }
  return null;
}

function reviewSettings(s: Settings): ReviewSettings {
  for (const name of ['CANDOR_AGREEMENT_CRON', 'CANDOR_REVIEW_CRON'] as const) {
    try {
      parseCron(s[name]);
    } catch (error) {
      throw new CandorError('config_invalid', `Invalid configuration:\n  ${name}: ${(error as Error).message}`);
    }
  }
  const emoji: Record<string, { task: string; value: string }> = {};
  for (const pair of (s.CANDOR_REVIEW_EMOJI ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name = '', target = ''] = pair.split('=');
    const [task = '', value = ''] = target.split(':');
    emoji[name] = { task, value };
  }
  try {
    withEmoji(emoji);
  } catch (error) {
    throw new CandorError('config_invalid', `Invalid configuration:\n  CANDOR_REVIEW_EMOJI: ${(error as Error).message}`);
  }
  return {
    reviewers: s.CANDOR_REVIEWERS.split(',')
      .map((r) => r.trim())
      .filter(Boolean),
    slackChannel: s.CANDOR_REVIEW_SLACK_CHANNEL,
    teamsConversation: s.CANDOR_REVIEW_TEAMS_CONVERSATION,
    answeredRate: s.CANDOR_REVIEW_ANSWERED_RATE,
    abstainedRate: s.CANDOR_REVIEW_ABSTAINED_RATE,
    maxPerRun: s.CANDOR_REVIEW_MAX_PER_RUN,
    emoji,
    agreementCron: s.CANDOR_AGREEMENT_CRON,
    reviewCron: s.CANDOR_REVIEW_CRON,
  };
}

function slackSettings(s: Settings): SlackSettings | null {
  if (!s.SLACK_BOT_TOKEN) {
    if (s.SLACK_SIGNING_SECRET || s.SLACK_APP_TOKEN) {
      throw new CandorError(
        'config_invalid',
        'Invalid configuration:\n  SLACK_BOT_TOKEN: missing (the Slack channel needs the bot token, xoxb-…, from OAuth & Permissions)',
      );
    }
    return null;
  }
  if (!s.SLACK_SIGNING_SECRET && !s.SLACK_APP_TOKEN) {
    throw new CandorError(
      'config_invalid',
      'Invalid configuration:\n  SLACK_SIGNING_SECRET: missing (needed for HTTP events; or set SLACK_APP_TOKEN for Socket Mode)',
    );
  }
  return { botToken: s.SLACK_BOT_TOKEN, signingSecret: s.SLACK_SIGNING_SECRET, appToken: s.SLACK_APP_TOKEN, apiUrl: s.SLACK_API_URL };
}

function teamsSettings(s: Settings): TeamsSettings | null {
  if (!s.MICROSOFT_APP_ID) {
    if (!s.CANDOR_TEAMS_ALLOW_ANONYMOUS) return null;
    return { appId: undefined, appPassword: undefined, tenantId: undefined, appType: s.MICROSOFT_APP_TYPE, allowAnonymous: true };
  }
  const problems: string[] = [];
  if (s.MICROSOFT_APP_TYPE !== 'UserAssignedMSI' && !s.MICROSOFT_APP_PASSWORD) {
    problems.push(`  MICROSOFT_APP_PASSWORD: missing (a ${s.MICROSOFT_APP_TYPE} bot needs its client secret)`);
  }
  if (s.MICROSOFT_APP_TYPE !== 'MultiTenant' && !s.MICROSOFT_APP_TENANT_ID) {
    problems.push(`  MICROSOFT_APP_TENANT_ID: missing (required when MICROSOFT_APP_TYPE is ${s.MICROSOFT_APP_TYPE})`);
  }
  if (problems.length > 0) throw new CandorError('config_invalid', `Invalid configuration:\n${problems.join('\n')}`);
  return {
    appId: s.MICROSOFT_APP_ID,
    appPassword: s.MICROSOFT_APP_PASSWORD,
    tenantId: s.MICROSOFT_APP_TENANT_ID,
    appType: s.MICROSOFT_APP_TYPE,
    allowAnonymous: false,
  };
}

function jsonErrorPosition(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    const at = /\(line (\d+) column (\d+)\)/.exec((error as Error).message);
    if (at) return ` (line ${at[1]}, column ${at[2]})`;
  }
  return '';
}
