import { withEmoji } from '../core/review/review-tasks.js';
import { parseCron } from '../schedule/cron-schedule.js';
import { forExample } from './setting-examples.js';
import type { Settings } from './settings-schema.js';

/** A setting that is wrong given the others, named so a person can fix it: `message` is a sentence after "NAME: ", with an example. */
export interface Problem {
  readonly variable: string;
  readonly message: string;
}

/** A setting left unset that the others need. */
function notSet(variable: string, why: string): Problem {
  return { variable, message: `not set, but ${why}${forExample(variable)}` };
}

/** Slack: on when SLACK_BOT_TOKEN is set; null when off. */
export function slackSettings(s: Settings, problems: Problem[]) {
  if (!s.SLACK_BOT_TOKEN) {
    if (s.SLACK_SIGNING_SECRET || s.SLACK_APP_TOKEN) {
      problems.push(notSet('SLACK_BOT_TOKEN', 'the Slack channel needs its bot token (OAuth & Permissions) beside its other settings'));
    }
    return null;
  }
  if (!s.SLACK_SIGNING_SECRET && !s.SLACK_APP_TOKEN) {
    problems.push(
      notSet('SLACK_SIGNING_SECRET', "Slack's HTTP events need it (Basic Information) unless SLACK_APP_TOKEN is set for Socket Mode"),
    );
  }
  return {
    botToken: s.SLACK_BOT_TOKEN,
    /** Absent in Socket Mode. */
    signingSecret: s.SLACK_SIGNING_SECRET,
    /** Set: Socket Mode; absent: HTTP events at /slack/events. */
    appToken: s.SLACK_APP_TOKEN,
    apiUrl: s.SLACK_API_URL,
    /** How long after a send cut short by a crash (or a timeout) the conversation is looked at before sending again. */
    sendSettleMs: s.SLACK_SEND_SETTLE_MS,
  };
}

/** Teams: on with MICROSOFT_APP_ID, or anonymously for development; null when off. */
export function teamsSettings(s: Settings, problems: Problem[]) {
  if (!s.MICROSOFT_APP_ID) {
    if (!s.CANDOR_TEAMS_ALLOW_ANONYMOUS) return null;
    return {
      appId: undefined as string | undefined,
      appPassword: undefined as string | undefined,
      tenantId: undefined as string | undefined,
      appType: s.MICROSOFT_APP_TYPE,
      allowAnonymous: true,
      openIdMetadataUrl: undefined as string | undefined,
    };
  }
  if (s.MICROSOFT_APP_TYPE !== 'UserAssignedMSI' && !s.MICROSOFT_APP_PASSWORD) {
    problems.push(notSet('MICROSOFT_APP_PASSWORD', `a ${s.MICROSOFT_APP_TYPE} bot needs its client secret`));
  }
  if (s.MICROSOFT_APP_TYPE !== 'MultiTenant' && !s.MICROSOFT_APP_TENANT_ID) {
    problems.push(notSet('MICROSOFT_APP_TENANT_ID', `MICROSOFT_APP_TYPE=${s.MICROSOFT_APP_TYPE} needs the bot's tenant`));
  }
  return {
    /** Undefined only when anonymous development mode is on. */
    appId: s.MICROSOFT_APP_ID as string | undefined,
    appPassword: s.MICROSOFT_APP_PASSWORD,
    tenantId: s.MICROSOFT_APP_TENANT_ID,
    appType: s.MICROSOFT_APP_TYPE,
    allowAnonymous: false,
    /** Where the signing keys of channel → bot tokens are published; undefined: the public cloud's. */
    openIdMetadataUrl: s.MICROSOFT_OPENID_METADATA_URL,
  };
}

/** The model: any of OPENAI_API_KEY, OPENAI_BASE_URL, AZURE_OPENAI_ENDPOINT turns it on; null is extractive mode. */
export function llmSettings(s: Settings, problems: Problem[]) {
  const common = {
    chatModel: s.CANDOR_CHAT_MODEL,
    judgeModel: s.CANDOR_JUDGE_MODEL ?? s.CANDOR_CHAT_MODEL,
    embeddingModel: s.CANDOR_EMBEDDING_MODEL,
    timeoutMs: s.CANDOR_LLM_TIMEOUT_MS,
    maxRetries: s.CANDOR_LLM_MAX_RETRIES,
    concurrency: s.CANDOR_LLM_CONCURRENCY,
    /** How to ask for JSON: a JSON schema (structured outputs), plain JSON mode, or schema first with a fallback. */
    structured: s.CANDOR_LLM_STRUCTURED,
    /** A second grounding check: the model judges whether the cited facts entail the answer. */
    entailment: s.CANDOR_LLM_ENTAILMENT,
    /** CANDOR_LLM_PROVIDER: gen_ai.provider.name; undefined: told from the endpoint. */
    providerName: s.CANDOR_LLM_PROVIDER,
    /** CANDOR_LLM_PRICES: USD per million tokens by model, over the defaults. */
    prices: s.CANDOR_LLM_PRICES ?? {},
  };
  const none = {
    apiKey: undefined as string | undefined,
    baseUrl: undefined as string | undefined,
    azure: undefined as { endpoint: string; deployment: string; apiVersion: string } | undefined,
  };
  if (s.AZURE_OPENAI_ENDPOINT) {
    if (!s.AZURE_OPENAI_API_KEY) problems.push(notSet('AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_ENDPOINT needs the key of its resource'));
    if (!s.AZURE_OPENAI_DEPLOYMENT)
      problems.push(notSet('AZURE_OPENAI_DEPLOYMENT', 'AZURE_OPENAI_ENDPOINT needs the name of the chat model deployment'));
    const azure = {
      endpoint: s.AZURE_OPENAI_ENDPOINT,
      deployment: s.AZURE_OPENAI_DEPLOYMENT ?? '',
      apiVersion: s.AZURE_OPENAI_API_VERSION,
    };
    return { ...none, provider: 'azure' as 'openai' | 'openai-compatible' | 'azure', apiKey: s.AZURE_OPENAI_API_KEY, azure, ...common };
  }
  if (s.OPENAI_BASE_URL)
    return { ...none, provider: 'openai-compatible' as const, apiKey: s.OPENAI_API_KEY, baseUrl: s.OPENAI_BASE_URL, ...common };
  if (s.OPENAI_API_KEY) return { ...none, provider: 'openai' as const, apiKey: s.OPENAI_API_KEY, ...common };
  if (s.CANDOR_FACT_EXTRACTION === 'llm') {
    problems.push({
      variable: 'CANDOR_FACT_EXTRACTION',
      message:
        '"llm" needs a model: set OPENAI_API_KEY, OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT, or split into sentences with CANDOR_FACT_EXTRACTION=sentences',
    });
  }
  return null;
}

/** Review and agreement: reviewers, where cards go, sampling rates, schedules, and the tasks with their emoji (computed once). */
export function reviewSettings(s: Settings, problems: Problem[]) {
  for (const variable of ['CANDOR_AGREEMENT_CRON', 'CANDOR_REVIEW_CRON'] as const) {
    try {
      parseCron(s[variable], { timezone: s.CANDOR_TIMEZONE });
    } catch (error) {
      problems.push({ variable, message: `${(error as Error).message}${forExample(variable)}` });
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
  let tasks = withEmoji({});
  try {
    tasks = withEmoji(emoji);
  } catch (error) {
    problems.push({ variable: 'CANDOR_REVIEW_EMOJI', message: `${(error as Error).message}${forExample('CANDOR_REVIEW_EMOJI')}` });
  }
  return {
    /** Platform user ids, optionally prefixed ("slack:U123", "teams:<aad id>", "cli:name"), or a Slack user group ("slack:group:S123"). */
    reviewers: s.CANDOR_REVIEWERS,
    slackChannel: s.CANDOR_REVIEW_SLACK_CHANNEL,
    /** "serviceUrl|conversationId" for Teams review cards. */
    teamsConversation: s.CANDOR_REVIEW_TEAMS_CONVERSATION,
    answeredRate: s.CANDOR_REVIEW_ANSWERED_RATE,
    abstainedRate: s.CANDOR_REVIEW_ABSTAINED_RATE,
    maxPerRun: s.CANDOR_REVIEW_MAX_PER_RUN,
    /** Emoji overrides: emoji name → task and label. */
    emoji,
    /** The review tasks with their criteria and emoji legends (defaults and overrides), computed once. */
    tasks,
    agreementCron: s.CANDOR_AGREEMENT_CRON,
    /** When to sample new interactions and post their cards. */
    reviewCron: s.CANDOR_REVIEW_CRON,
    /** The IANA time zone both schedules are read in. */
    timezone: s.CANDOR_TIMEZONE,
  };
}
