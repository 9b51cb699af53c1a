import type { settingsSchema } from './settings-schema.js';

export type SettingName = keyof typeof settingsSchema.shape;

/**
 * What a setting is for, in Markdown (links relative to docs/). With a second element: what applies when it is
 * unset, for a default the schema cannot hold (another setting's value, a model's own threshold).
 */
export type SettingDoc = string | readonly [description: string, whenUnset: string];

export interface SettingsGroup {
  readonly title: string;
  /** One line on the group, with a link to the page that explains it. */
  readonly about: string;
  readonly settings: Partial<Record<SettingName, SettingDoc>>;
}

/**
 * The description of every setting in settingsSchema, grouped for the configuration reference
 * (`npm run docs:config` writes docs/configuration.md from the schema and this table; a test fails when
 * the page, the schema and this table disagree). Type, default and allowed values come from the schema.
 */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  {
    title: 'Store',
    about: 'Where Candor keeps knowledge bases, interactions and labels: an embedded PostgreSQL (PGlite) folder, or a PostgreSQL server.',
    settings: {
      CANDOR_DATA_DIR: 'The embedded PostgreSQL (PGlite) data folder, used when `DATABASE_URL` is unset. One process at a time holds it.',
      DATABASE_URL:
        'A PostgreSQL server instead of the embedded store (a pool of up to 10 connections per process); migrations apply on start, once across replicas.',
      CANDOR_EMBEDDED_CHECKPOINT_MS:
        'Embedded store: how often it checkpoints while anything is written (`0`: by WAL amount and at shutdown only). A process that is killed (SIGKILL, out of memory) replays the WAL written since the last checkpoint on its next start ([checkpoints](production.md#embedded-store-checkpoints)).',
      CANDOR_EMBEDDED_CHECKPOINT_WAL_MB:
        'Embedded store: it also checkpoints when this much WAL has been written since the last checkpoint (looked at every 5 s), whatever the time.',
    },
  },
  {
    title: 'Server and HTTP API',
    about: 'The HTTP listener of `candor serve`: the ask API, health, metrics ([running in production](production.md)).',
    settings: {
      HOST: 'Address the HTTP server listens on (`0.0.0.0` in the container image).',
      PORT: 'Port the HTTP server listens on (`0`: any free port).',
      CANDOR_MAX_BODY_BYTES: 'HTTP request body limit; larger bodies get 413.',
      CANDOR_API_TOKEN:
        'When set, `POST /api/ask` needs `Authorization: Bearer <token>` (401 otherwise). It shares the listener with the public Slack and Teams endpoints; `/healthz` stays open for probes.',
      CANDOR_METRICS_TOKEN:
        'When set, `GET /metrics` needs `Authorization: Bearer <token>` (Prometheus: `authorization: { credentials_file: … }` in the scrape config).',
      NODE_ENV:
        '`production` (the container image sets it): Candor warns at start about development defaults left in place (`CANDOR_USER_HASH_SALT`) and prints no console sign-in link.',
    },
  },
  {
    title: 'Knowledge bases and ingestion',
    about:
      'Which knowledge base answers by default, how served indexes are kept fresh, and the per-file limits of `candor ingest` ([documents](documents.md)).',
    settings: {
      CANDOR_KB:
        'The knowledge base used when a request or command names none, in direct messages, and in channels `CANDOR_CHANNELS` does not map.',
      CANDOR_INDEX_WAIT_MS:
        '`serve`: how long an ask for a KB whose index is still being built waits before `503 kb_warming` (`Retry-After: 5`).',
      CANDOR_INDEX_REFRESH_MS:
        '`serve`: the fallback poll for new KB versions (the store announces them; a missed announcement is seen within this).',
      CANDOR_INDEX_SNAPSHOTS:
        "`serve`: keep each KB's built index in `CANDOR_DATA_DIR/index` and load it at the next start, so a restarted replica serves a large KB in seconds instead of indexing every fact again (one folder per replica; a snapshot that is damaged, outdated, or from another database or history is rebuilt, not trusted; none with `CANDOR_DATA_DIR=memory://`).",
      CANDOR_INGEST_MAX_FILE_BYTES:
        'Documents larger than this (default 50 MiB) are refused by their size, unread; a `.jsonl` of any size is streamed, and only a longer line of it is skipped ([what ingestion refuses](documents.md#what-ingestion-refuses)).',
      CANDOR_INGEST_MAX_DOCX_BYTES:
        'A `.docx` whose parts expand to more than this (default 256 MiB), as its ZIP directory declares them and checked as they inflate, is refused.',
      CANDOR_INGEST_MAX_PDF_PAGES: 'PDFs with more pages are refused before any page is read.',
      CANDOR_INGEST_MAX_PARSE_MB:
        'Memory (MiB) reading one PDF or `.docx` may add to the process (less when the machine or container has less free); beyond it the file fails.',
      CANDOR_INGEST_PARSE_TIMEOUT_MS: 'Time (ms) reading one PDF or `.docx` may take.',
      CANDOR_SOURCE_URLS:
        'A JSON object: ingested folder → http(s) base URL, the link of the documents below it that name none themselves, e.g. `{"handbook":"https://intranet.example.com/handbook/"}` ([links to sources](documents.md#links-to-sources)).',
      CANDOR_SOURCES_POLL_MS: '`serve`: how often each replica looks for sources due a sync (one replica runs each sync).',
      CANDOR_SOURCES_PACE_MS: 'The least time (ms) between two requests of a source sync to one web host.',
      CANDOR_SOURCES_TIMEOUT_MS: 'Time (ms) one web request of a source sync may take, the body included.',
      CANDOR_SOURCES_STALE_DAYS:
        'A synced document its source has not listed for this many days is shown as stale in the console and in `candor_source_documents{state="stale"}` ([sources](documents.md#sources-that-sync)).',
    },
  },
  {
    title: 'The gate and answers',
    about: 'How many facts are retrieved and cited, and the answerability threshold ([how the gate decides](gate.md)).',
    settings: {
      CANDOR_MAX_QUESTION_CHARS: 'Longer questions are refused with a clear error.',
      CANDOR_TOP_K: 'Facts retrieved per question.',
      CANDOR_MAX_CITATIONS: 'Facts an answer cites at most.',
      CANDOR_CITE_SHARE: "A runner-up is cited when its score is at least this share of the best fact's.",
      CANDOR_CITE_COVERAGE: 'A runner-up from another passage is cited only when it covers this share of what the best fact covers.',
      CANDOR_MIN_ANSWERABILITY: [
        'Threshold on the answerability score for every KB without its own calibrated one (`candor eval calibrate --apply`). The retired `CANDOR_MIN_RELEVANCE`, `CANDOR_MIN_COVERAGE` and `CANDOR_MIN_MARGIN` stop start-up with a message naming this one.',
        "the model's own (0.5)",
      ],
      CANDOR_CHECK_ENTITIES:
        'The unknown-identifier rule: refuse when the question names an identifier (`ADR-0050`, `Form IR8A`) the KB never mentions.',
      CANDOR_CHECK_ANSWER_TYPE:
        'The answer-type signal: a how much / how many / when / who question whose closest facts hold no such value counts against answering.',
      CANDOR_RELEVANCE_SIGNAL:
        '`cosine`: with embeddings (`CANDOR_EMBEDDING_MODEL`), the relevance rule compares cosine × confidence with `CANDOR_MIN_COSINE` instead of the lexical score.',
      CANDOR_MIN_COSINE: 'The cosine threshold of `CANDOR_RELEVANCE_SIGNAL=cosine` (depends on the embedding model: calibrate it).',
    },
  },
  {
    title: 'Answering with an LLM',
    about: 'Without a model Candor answers extractively; with one, it writes grounded answers ([answering with an LLM](llm.md)).',
    settings: {
      OPENAI_API_KEY: 'OpenAI; alone it selects api.openai.com.',
      OPENAI_BASE_URL: 'Any OpenAI-compatible server (Ollama, vLLM, LM Studio); the key is then optional.',
      AZURE_OPENAI_ENDPOINT: 'Azure OpenAI (with `AZURE_OPENAI_API_KEY` and `AZURE_OPENAI_DEPLOYMENT`: all three needed).',
      AZURE_OPENAI_API_KEY: 'Azure OpenAI key.',
      AZURE_OPENAI_DEPLOYMENT: 'Azure OpenAI deployment (used as the model name).',
      AZURE_OPENAI_API_VERSION: 'Azure OpenAI API version.',
      CANDOR_CHAT_MODEL: 'Model for answers (on Azure the deployment name is used).',
      CANDOR_JUDGE_MODEL: ['Model for LLM judges.', '`CANDOR_CHAT_MODEL`'],
      CANDOR_EMBEDDING_MODEL: 'Embeddings for vector retrieval, fused with the lexical ranking; unset: retrieval is lexical.',
      CANDOR_LLM_TIMEOUT_MS: 'Timeout per model request (ms).',
      CANDOR_LLM_MAX_RETRIES: 'Retries on connection errors, 408/409/429 (honouring `Retry-After`) and 5xx, with exponential backoff.',
      CANDOR_LLM_CONCURRENCY: 'Model calls in flight per process; more wait their turn.',
      CANDOR_LLM_STRUCTURED:
        '`json_schema` (structured outputs), `json_object` (JSON mode, validated), or `auto`: schema first, JSON mode from the first time the server refuses a schema.',
      CANDOR_FACT_EXTRACTION: '`llm`: at ingestion the model splits each passage into self-contained facts (needs a model).',
      CANDOR_LLM_ENTAILMENT: 'A second grounding check: the judge model must find the answer entailed by the cited facts.',
      CANDOR_LLM_PROVIDER: [
        '`gen_ai.provider.name` on model calls and metrics (`openai`, `azure.ai.openai`, `ollama`, `vllm`, …; see [provider name](llm.md#provider-name)).',
        'told from the endpoint',
      ],
      CANDOR_LLM_PRICES: [
        'USD per million tokens by model, over the defaults: a JSON object of model → `{"input", "output", "cachedInput"?}` ([cost](llm.md#cost)).',
        "OpenAI's list prices",
      ],
    },
  },
  {
    title: 'Chat channels',
    about:
      'What Slack and Teams share: which knowledge base answers where, and the durable inbox of questions ([channels and knowledge bases](channels-and-kbs.md)).',
    settings: {
      CANDOR_CHANNELS:
        'A JSON list: Slack channels and Teams conversations → knowledge bases, mention-only, reply mode, asker group; an unknown KB name stops `serve` naming it ([channels and knowledge bases](channels-and-kbs.md)).',
      CANDOR_INBOX_LEASE_MS: "How long a worker's claim on a question lasts without renewal (renewed every third of it).",
      CANDOR_INBOX_POLL_MS: 'How often idle workers look for questions another replica stored or a dead worker left.',
      CANDOR_INBOX_MAX_ATTEMPTS: 'Tries per question before it is given up (the asker is told Candor cannot answer now).',
      CANDOR_INBOX_CONCURRENCY: 'Questions answered at once per channel and process.',
    },
  },
  {
    title: 'Slack',
    about: 'The Slack channel is on when `SLACK_BOT_TOKEN` is set ([Slack](slack.md)).',
    settings: {
      SLACK_BOT_TOKEN: 'The Bot User OAuth Token (`xoxb-…`); turns the Slack channel on.',
      SLACK_SIGNING_SECRET: 'HTTP mode: verifies requests to `/slack/events`.',
      SLACK_APP_TOKEN:
        'An app-level token (`xapp-…`, scope `connections:write`): Socket Mode instead of HTTP events, no public URL needed.',
      SLACK_API_URL: 'A Slack-compatible Web API (tests point it at a local fake).',
      SLACK_SEND_SETTLE_MS:
        'How long after a reply was sent with no answer from Slack (the process died, the connection dropped) Candor looks for it in the conversation before sending it again. A reply Slack takes longer than this to accept may show twice ([once, as a person sees it](slack.md#each-reply-once)).',
    },
  },
  {
    title: 'Microsoft Teams',
    about: 'The Teams channel is on when `MICROSOFT_APP_ID` is set ([Microsoft Teams](teams.md)).',
    settings: {
      MICROSOFT_APP_ID: 'Turns the Teams channel on; incoming activities must carry a valid Bot Framework token.',
      MICROSOFT_APP_PASSWORD: "The bot's client secret.",
      MICROSOFT_APP_TENANT_ID: "The bot's tenant (for a single-tenant bot).",
      MICROSOFT_APP_TYPE: 'The bot registration type.',
      CANDOR_TEAMS_ALLOW_ANONYMOUS: 'Development only: accept unauthenticated activities without an app id (logged as a warning at start).',
      MICROSOFT_OPENID_METADATA_URL: [
        'Where the signing keys of incoming Bot Framework tokens are published: a sovereign cloud, a proxy (tests point it at a local fake).',
        'the public cloud (`login.botframework.com`)',
      ],
    },
  },
  {
    title: 'Experts and knowledge gaps',
    about: 'Where refused questions go and who may answer them ([experts and gaps](experts-and-gaps.md)).',
    settings: {
      CANDOR_EXPERTS:
        'A JSON list, one entry per KB: `{"kb", "slack"?: CHANNEL_ID, "teams"?: "serviceUrl|conversationId", "people": ["slack:U…", "slack:group:S…", "teams:<AAD object id>", "cli:NAME", "console:NAME"], "autoAsk"?: false, "reconfirmDays"?: N}` ([settings](experts-and-gaps.md#settings)).',
      CANDOR_EXPERTS_DELIVER_MS:
        'How often the server posts expert questions and tells askers what was left waiting (a channel was down; an answer came from the CLI).',
    },
  },
  {
    title: 'Review and agreement',
    about:
      'Sampling interactions for reviewers, who may label, and when the agreement report runs ([review and agreement](review-and-agreement.md)).',
    settings: {
      CANDOR_REVIEWERS:
        'Comma-separated reviewer ids: `slack:U…`, `slack:group:S…` (a user group), `teams:<AAD object id>`, `cli:<name>`, `console:<basic-auth user>`. Only these labels count.',
      CANDOR_REVIEW_SLACK_CHANNEL: 'Slack channel id for review cards and report summaries.',
      CANDOR_REVIEW_TEAMS_CONVERSATION: 'Where Teams review cards and report summaries go: `serviceUrl|conversationId`.',
      CANDOR_REVIEW_ANSWERED_RATE: 'Sampling rate for answered interactions, per stratum.',
      CANDOR_REVIEW_ABSTAINED_RATE: 'Sampling rate for refused interactions, per stratum.',
      CANDOR_REVIEW_MAX_PER_RUN: 'Samples per run at most, shared fairly across strata.',
      CANDOR_REVIEW_EMOJI: 'Extra or replacement Slack review emoji: `emoji=task:label,…`.',
      CANDOR_AGREEMENT_CRON: 'When to run the agreement report (in `CANDOR_TIMEZONE`).',
      CANDOR_REVIEW_CRON: 'When to sample interactions and post review cards (in `CANDOR_TIMEZONE`).',
      CANDOR_TIMEZONE:
        'IANA time zone the two schedules are read in (`Europe/Amsterdam`). Schedules are five-field cron or `@hourly` `@daily` `@weekly` `@monthly`, day of month and day of week either matching when both are set (Vixie cron), evaluated by [croner](https://croner.56k.guru). Across DST a fixed time runs once a day: a skipped 02:30 runs at 03:00, a repeated one at its first occurrence.',
    },
  },
  {
    title: 'Console',
    about: 'The console at `/` is off until a token or a basic-auth user is set ([the console](console.md)).',
    settings: {
      CANDOR_CONSOLE_TOKEN: 'Turns the console on: a shared secret for its sign-in form and `Authorization: Bearer`.',
      CANDOR_CONSOLE_BASIC_AUTH:
        '`user:password,…`: HTTP basic auth for the console instead of, or beside, the token; `console:<user>` can be a reviewer.',
      CANDOR_TRACE_URL:
        'Where a trace id links in the console: an http(s) URL with `{traceId}` in it (`https://tempo.example/trace/{traceId}`); unset: no link.',
      CANDOR_PUBLIC_URL:
        'Where people reach the console (`https://candor.example.org`): review cards link each interaction to it; unset: no link.',
    },
  },
  {
    title: 'Telemetry and logs',
    about: 'Traces, logs and what they may contain ([telemetry and monitoring](production.md#telemetry-and-monitoring)).',
    settings: {
      CANDOR_TRACE_EXPORTER: [
        '`none`, `console` or `otlp`; wins over `OTEL_TRACES_EXPORTER`.',
        '`otlp` if an OTLP endpoint is set, else `none`',
      ],
      OTEL_TRACES_EXPORTER: ['The standard variable for the trace exporter (`CANDOR_TRACE_EXPORTER` wins).', 'as `CANDOR_TRACE_EXPORTER`'],
      OTEL_EXPORTER_OTLP_ENDPOINT: 'Export traces by OTLP/HTTP to this endpoint (`/v1/traces` is appended).',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'The full traces URL, used as given (wins over the general endpoint).',
      OTEL_EXPORTER_OTLP_PROTOCOL: [
        'OTLP encoding; `grpc` is refused with a message (use the collector’s HTTP port, 4318).',
        '`http/protobuf`',
      ],
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: ['The same for traces only (wins over the general one).', '`OTEL_EXPORTER_OTLP_PROTOCOL`'],
      OTEL_EXPORTER_OTLP_HEADERS: '`key=value,…` sent with every export (a vendor’s API key); never echoed.',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'The same for traces only, added to the general headers.',
      OTEL_SERVICE_NAME: ['Service name on traces and `target_info`.', '`service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `candor`'],
      OTEL_RESOURCE_ATTRIBUTES:
        '`key=value,…` (percent-encoded values) on every span and on `target_info`, e.g. `deployment.environment.name=prod,k8s.pod.name=…`.',
      OTEL_TRACES_SAMPLER: 'The standard samplers; a sampled incoming `traceparent` is followed by default.',
      OTEL_TRACES_SAMPLER_ARG: 'The ratio of the `traceidratio` samplers.',
      CANDOR_TRACE_CONTENT:
        "Put question text on spans (off: only its length), a 👎's comment and a judge's reasoning on evaluation events, and user-text fields in logs.",
      CANDOR_USER_HASH_SALT:
        'Salt for the hashed user ids stored on interactions; also signs button values and seals ephemeral askers. Set your own in production.',
      LOG_LEVEL: 'Log level (logs go to stderr).',
      LOG_FORMAT: '`auto`: readable lines when stderr is a terminal, JSON lines otherwise.',
    },
  },
  {
    title: 'Question generation',
    about: 'When `candor eval generate` counts two questions as near-duplicates ([generating tests](evaluation.md#candor-eval-generate)).',
    settings: {
      CANDOR_GEN_KEYWORD_SIMILARITY: 'A question whose TF-IDF cosine with a kept one is at least this is a keyword near-duplicate.',
      CANDOR_GEN_SEMANTIC_SIMILARITY: 'The same for the embedding cosine (with `CANDOR_EMBEDDING_MODEL`; depends on the model).',
      CANDOR_GEN_LEXICAL_SIMILARITY: 'The same for the character-trigram stand-in (no embedding model).',
    },
  },
];
