import { z } from 'zod';

import { channelsSetting } from './channels-setting.js';
import { consoleSettingsShape } from './console-settings.js';
import { expertsSetting } from './experts-setting.js';
import { DEFAULT_INGEST_LIMITS as INGEST } from './ingest-limits.js';
import { modelPricesSetting } from './model-prices-setting.js';
import { otelSettingsShape } from './otel-settings.js';
import { reviewersSetting } from './reviewers-setting.js';
import { sourceUrlsSetting } from './source-urls-setting.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const fraction = z.coerce.number().min(0).max(1);
/** Whether the runtime knows the zone (its ICU data decides, as it does for the scheduler). */
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
};

/**
 * Every setting, keyed by its environment variable so that an error names the
 * variable a person has to fix. docs/configuration.md is generated from it (npm run docs:config).
 */
export const settingsSchema = z.object({
  CANDOR_DATA_DIR: z.string().min(1).default('./.candor'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  // The embedded store checkpoints this often while written to (0: by WAL amount and at shutdown only), and after
  // this much WAL: what a killed process replays on its next start.
  CANDOR_EMBEDDED_CHECKPOINT_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  CANDOR_EMBEDDED_CHECKPOINT_WAL_MB: z.coerce.number().int().min(16).max(16_384).default(128),
  CANDOR_KB: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'expected a name of letters, digits, _ . -')
    .default('default'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  CANDOR_MAX_QUESTION_CHARS: z.coerce.number().int().min(10).max(100_000).default(2000),
  // A served KB's index is built off the request path: an ask for a KB with none yet waits this long, then gets a 503.
  CANDOR_INDEX_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  // How often a server looks for new KB versions (an ingest by another process) and builds their index before the next ask.
  CANDOR_INDEX_REFRESH_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(10_000),
  // A served KB's built index is kept in the data folder (CANDOR_DATA_DIR/index) and loaded at the next start.
  CANDOR_INDEX_SNAPSHOTS: bool.default(true),
  CANDOR_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(65_536),
  // They share a listener with the public Slack and Teams endpoints: set these to keep them private.
  CANDOR_API_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  CANDOR_METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  CANDOR_TOP_K: z.coerce.number().int().min(1).max(50).default(5),
  CANDOR_MAX_CITATIONS: z.coerce.number().int().min(1).max(10).default(3),
  CANDOR_CITE_SHARE: fraction.default(0.5),
  CANDOR_CITE_COVERAGE: fraction.default(0.8),
  // Unset: the answerability model's own threshold (a KB's calibrated threshold wins over both).
  CANDOR_MIN_ANSWERABILITY: z.coerce.number().gt(0).lt(1).optional(),
  CANDOR_CHECK_ENTITIES: bool.default(true),
  CANDOR_CHECK_ANSWER_TYPE: bool.default(true),
  CANDOR_RELEVANCE_SIGNAL: z.enum(['lexical', 'cosine']).default('lexical'),
  CANDOR_MIN_COSINE: fraction.default(0.5),
  CANDOR_TRACE_CONTENT: bool.default(false),
  CANDOR_TRACE_EXPORTER: z.enum(['none', 'console', 'otlp']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  // Unset: service.name from OTEL_RESOURCE_ATTRIBUTES, else "candor".
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  ...otelSettingsShape,
  ...consoleSettingsShape,
  CANDOR_USER_HASH_SALT: z.string().min(1).default('candor'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // auto: readable lines when stderr is a terminal, JSON lines otherwise.
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  // Set to production by the container image; Candor then warns about settings left at development defaults.
  NODE_ENV: z.string().optional(),
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
  // A reply sent when the process died is looked for in the conversation this long after it was sent, then sent
  // again only if absent: a reply Slack takes longer than this to accept may show twice.
  SLACK_SEND_SETTLE_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  // Teams: on when MICROSOFT_APP_ID is set, or anonymously (development only) with CANDOR_TEAMS_ALLOW_ANONYMOUS.
  MICROSOFT_APP_ID: z.string().min(1).optional(),
  MICROSOFT_APP_PASSWORD: z.string().min(1).optional(),
  MICROSOFT_APP_TENANT_ID: z.string().min(1).optional(),
  MICROSOFT_APP_TYPE: z.enum(['MultiTenant', 'SingleTenant', 'UserAssignedMSI']).default('MultiTenant'),
  CANDOR_TEAMS_ALLOW_ANONYMOUS: bool.default(false),
  // Unset: the public cloud's (login.botframework.com); a sovereign cloud, a proxy, or a local fake in tests.
  MICROSOFT_OPENID_METADATA_URL: z.url().optional(),
  // Ingestion: per-file limits (src/config/ingest-limits.ts); a file over one fails alone, the rest of the batch is stored.
  CANDOR_INGEST_MAX_FILE_BYTES: z.coerce.number().int().min(1).max(1_073_741_824).default(INGEST.maxFileBytes),
  CANDOR_INGEST_MAX_DOCX_BYTES: z.coerce.number().int().min(65_536).default(INGEST.maxDocxBytes),
  CANDOR_INGEST_MAX_PDF_PAGES: z.coerce.number().int().min(1).default(INGEST.maxPdfPages),
  CANDOR_INGEST_MAX_PARSE_MB: z.coerce.number().int().min(32).default(INGEST.maxParseMb),
  CANDOR_INGEST_PARSE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(INGEST.parseTimeoutMs),
  // Links for citations: a JSON object of ingested folder → http(s) base URL (src/kb/ingest/source-urls.ts).
  CANDOR_SOURCE_URLS: sourceUrlsSetting.optional(),
  CANDOR_SOURCES_POLL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  CANDOR_SOURCES_PACE_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  CANDOR_SOURCES_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  CANDOR_SOURCES_STALE_DAYS: z.coerce.number().min(0.001).max(3650).default(30),
  // The durable inbox of chat questions.
  CANDOR_INBOX_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  CANDOR_INBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  CANDOR_INBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  CANDOR_INBOX_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
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
  // gen_ai.provider.name of model calls (openai, azure.ai.openai, ollama, …); unset: told from the endpoint (src/llm/llm-endpoint.ts).
  CANDOR_LLM_PROVIDER: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'expected a provider name such as openai, azure.ai.openai, ollama')
    .optional(),
  // USD per million tokens by model, over the defaults (src/llm/model-prices.ts): candor.llm.cost.
  CANDOR_LLM_PRICES: modelPricesSetting.optional(),
  // Review and agreement.
  CANDOR_REVIEWERS: reviewersSetting.default([]),
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
      'expected emoji=task:label pairs separated by commas',
    )
    .optional(),
  CANDOR_AGREEMENT_CRON: z.string().min(1).default('0 6 * * *'),
  // Experts per KB: where refused questions go and who may answer them (src/config/experts-setting.ts).
  CANDOR_EXPERTS: expertsSetting.optional(),
  // Expert requests and answer notices left waiting (a channel was down, an answer came from the CLI) are sent this often.
  CANDOR_EXPERTS_DELIVER_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  // Conversations → knowledge bases: a KB (or several) per Slack channel or Teams conversation (src/config/channels-setting.ts).
  CANDOR_CHANNELS: channelsSetting.optional(),
  // Where people reach the console (https://candor.example.org): links in review cards and expert posts. Unset: no links.
  CANDOR_PUBLIC_URL: z.url().optional(),
  // Question generation (candor eval generate): diversity filtering thresholds.
  CANDOR_GEN_KEYWORD_SIMILARITY: fraction.default(0.75),
  CANDOR_GEN_SEMANTIC_SIMILARITY: fraction.default(0.9),
  CANDOR_GEN_LEXICAL_SIMILARITY: fraction.default(0.8),
  CANDOR_REVIEW_CRON: z.string().min(1).default('0 * * * *'),
  // The IANA time zone CANDOR_REVIEW_CRON and CANDOR_AGREEMENT_CRON are read in (DST-aware).
  CANDOR_TIMEZONE: z.string().refine(isTimeZone, 'expected an IANA time zone such as Europe/Amsterdam or UTC').default('UTC'),
});

export type Settings = z.infer<typeof settingsSchema>;

/** Settings that no longer exist; a deployment still setting them is told so, rather than silently changing behaviour. */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  CANDOR_MIN_RELEVANCE: 'no longer used',
  CANDOR_MIN_COVERAGE: 'no longer used',
  CANDOR_MIN_MARGIN: 'no longer used',
};

/** What replaced the retired settings, said once after them. */
export const RETIRED_HINT =
  'The hard thresholds became features of one answerability score: set CANDOR_MIN_ANSWERABILITY (0–1), or calibrate a KB with: candor eval calibrate --kb NAME --questions FILE --apply';

/** Variables whose values an error never echoes. */
export function isSecret(name: string): boolean {
  return /TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL|HEADERS|BASIC_AUTH/i.test(name);
}
