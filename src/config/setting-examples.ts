import { z } from 'zod';

import { CHANNELS_EXAMPLE } from './channels-setting.js';
import { EXPERTS_EXAMPLE } from './experts-setting.js';
import { PRICES_EXAMPLE } from './model-prices-setting.js';
import { settingsSchema } from './settings-schema.js';
import { SOURCE_URLS_EXAMPLE } from './source-urls-setting.js';

const TOKEN = '$(openssl rand -hex 24)';
const GUID = '00000000-0000-0000-0000-000000000000';

/**
 * A value that works for each setting whose default does not show one (it has none, or an empty one):
 * what a configuration error offers as an example. The others' example is their default.
 */
const EXAMPLES: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://candor:PASSWORD@db:5432/candor',
  CANDOR_API_TOKEN: TOKEN,
  CANDOR_METRICS_TOKEN: TOKEN,
  CANDOR_CONSOLE_TOKEN: TOKEN,
  CANDOR_CONSOLE_BASIC_AUTH: 'dana:correct-horse-battery',
  CANDOR_TRACE_URL: 'https://tempo.example.org/trace/{traceId}',
  CANDOR_MIN_ANSWERABILITY: '0.6',
  CANDOR_TRACE_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318',
  OTEL_SERVICE_NAME: 'candor',
  OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=production',
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://localhost:4318/v1/traces',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20YOUR_TOKEN',
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20YOUR_TOKEN',
  NODE_ENV: 'production',
  SLACK_BOT_TOKEN: 'xoxb-YOUR-BOT-TOKEN',
  SLACK_SIGNING_SECRET: 'YOUR_SIGNING_SECRET',
  SLACK_APP_TOKEN: 'xapp-YOUR-APP-TOKEN',
  MICROSOFT_APP_ID: GUID,
  MICROSOFT_APP_PASSWORD: 'YOUR_CLIENT_SECRET',
  MICROSOFT_APP_TENANT_ID: GUID,
  MICROSOFT_OPENID_METADATA_URL: 'https://login.botframework.com/v1/.well-known/openidconfiguration',
  CANDOR_SOURCE_URLS: SOURCE_URLS_EXAMPLE,
  OPENAI_API_KEY: 'sk-YOUR-KEY',
  OPENAI_BASE_URL: 'http://localhost:11434/v1',
  AZURE_OPENAI_ENDPOINT: 'https://YOUR-RESOURCE.openai.azure.com/',
  AZURE_OPENAI_API_KEY: 'YOUR_AZURE_KEY',
  AZURE_OPENAI_DEPLOYMENT: 'gpt-4o-mini',
  CANDOR_JUDGE_MODEL: 'gpt-4o',
  CANDOR_EMBEDDING_MODEL: 'text-embedding-3-small',
  CANDOR_LLM_PROVIDER: 'openai',
  CANDOR_LLM_PRICES: PRICES_EXAMPLE,
  CANDOR_REVIEWERS: 'slack:U024BE7LH,cli:dana',
  CANDOR_REVIEW_SLACK_CHANNEL: 'C0REVIEW',
  CANDOR_REVIEW_TEAMS_CONVERSATION: 'https://smba.trafficmanager.net/emea/|19:abc@thread.tacv2',
  CANDOR_REVIEW_EMOJI: 'thumbsup=abstention:correct,thumbsdown=abstention:incorrect',
  CANDOR_EXPERTS: EXPERTS_EXAMPLE,
  CANDOR_CHANNELS: CHANNELS_EXAMPLE,
  CANDOR_PUBLIC_URL: 'https://candor.example.org',
};

/** A value of the setting that works, as it is written in the environment; undefined for a name Candor does not know. */
export function settingExample(name: string): string | undefined {
  if (EXAMPLES[name] !== undefined) return EXAMPLES[name];
  const schema = (settingsSchema.shape as Record<string, z.ZodType>)[name];
  if (schema === undefined) return undefined;
  const value = (z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as { default?: unknown }).default;
  return value === undefined || value === '' ? undefined : String(value);
}

/** "; for example NAME=value", the value quoted for a shell where it needs to be; empty without an example. */
export function forExample(name: string): string {
  const value = settingExample(name);
  if (value === undefined) return '';
  const quoted = value.startsWith('$(') || /^[\w@%+=:,./{}-]*$/.test(value) ? value : `'${value}'`;
  return `; for example ${name}=${quoted}`;
}
