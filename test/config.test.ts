import { afterAll, describe, expect, it } from 'vitest';

import { loadConfig, settingsSchema } from '../src/config.js';
import { channelsOff } from '../src/config/channels-setting.js';
import { settingExample } from '../src/config/setting-examples.js';
import { CandorError } from '../src/kernel/errors.js';
import { candorInProcess } from './support/cli-in-process.js';
import { tempFiles } from './support/compose.js';

/** The CandorError loadConfig throws for `env` (fails the test when it does not throw one). */
function configError(env: Record<string, string | undefined>): CandorError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(CandorError);
    return error as CandorError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  const files = tempFiles({});
  afterAll(() => files.cleanup());

  it('applies the documented defaults when nothing is set', () => {
    // toMatchObject: other concerns (channels, LLM) add their own groups.
    expect(loadConfig({})).toMatchObject({
      store: { databaseUrl: undefined, dataDir: './.candor' },
      kb: { defaultName: 'default' },
      http: { host: '127.0.0.1', port: 3000, maxBodyBytes: 65_536 },
      ask: { maxQuestionChars: 2000, topK: 5, maxCitations: 3, citeShare: 0.5, citeCoverage: 0.8 },
      gate: { minAnswerability: undefined, checkEntities: true, checkAnswerType: true },
      telemetry: { exporter: 'none', otlpEndpoint: undefined, serviceName: 'candor', traceContent: false, userHashSalt: 'candor' },
      logLevel: 'info',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', CANDOR_MIN_ANSWERABILITY: '', DATABASE_URL: '' })).toMatchObject({
      http: { port: 3000 },
      gate: { minAnswerability: undefined },
      store: { databaseUrl: undefined },
    });
  });

  it('reads and converts the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://candor@db:5432/candor',
      CANDOR_MIN_ANSWERABILITY: '0.6',
      CANDOR_CHECK_ENTITIES: 'no',
      CANDOR_TRACE_CONTENT: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    expect(config.http.port).toBe(8080);
    expect(config.store.databaseUrl).toBe('postgresql://candor@db:5432/candor');
    expect(config.gate).toMatchObject({ minAnswerability: 0.6, checkEntities: false });
    expect(config.telemetry).toMatchObject({ traceContent: true, exporter: 'otlp', otlpEndpoint: 'http://collector:4318' });
  });

  it('reports every problem at once: settings wrong together as well as bad values', () => {
    const error = configError({
      SLACK_SIGNING_SECRET: 'a-signing-secret',
      AZURE_OPENAI_ENDPOINT: 'https://example.openai.azure.com/',
      CANDOR_REVIEW_CRON: 'every hour',
      MICROSOFT_APP_ID: 'app-id',
      MICROSOFT_APP_TYPE: 'SingleTenant',
    });
    expect(error.message.match(/Invalid configuration:/g)).toHaveLength(1);
    for (const variable of [
      'SLACK_BOT_TOKEN',
      'AZURE_OPENAI_API_KEY',
      'AZURE_OPENAI_DEPLOYMENT',
      'CANDOR_REVIEW_CRON',
      'MICROSOFT_APP_PASSWORD',
      'MICROSOFT_APP_TENANT_ID',
    ]) {
      expect(error.message).toContain(`  ${variable}: `);
    }
  });

  it('reads the schedules in CANDOR_TIMEZONE (UTC by default) and names an unknown zone', () => {
    expect(loadConfig({}).review.timezone).toBe('UTC');
    expect(loadConfig({ CANDOR_TIMEZONE: 'Europe/Amsterdam', CANDOR_AGREEMENT_CRON: '30 2 * * *' }).review).toMatchObject({
      timezone: 'Europe/Amsterdam',
      agreementCron: '30 2 * * *',
    });
    const error = configError({ CANDOR_TIMEZONE: 'Europe/Amsterdma', CANDOR_AGREEMENT_CRON: '0 25 * * *' });
    expect(error.message).toContain(
      'CANDOR_TIMEZONE: "Europe/Amsterdma" is not an IANA time zone such as Europe/Amsterdam or UTC; for example CANDOR_TIMEZONE=UTC',
    );
  });

  it('computes the review tasks with their emoji once, in the configuration', () => {
    const config = loadConfig({ CANDOR_REVIEW_EMOJI: 'thumbsup=abstention:correct' });
    const abstention = config.review.tasks.find((t) => t.id === 'abstention');
    expect(abstention?.emoji.thumbsup).toBe('correct');
  });

  it('names retired gate thresholds and what replaced them, rather than ignoring them', () => {
    expect(() => loadConfig({ CANDOR_MIN_COVERAGE: '0.5', CANDOR_MIN_MARGIN: '0.2' })).toThrow(
      /CANDOR_MIN_COVERAGE: "0\.5" is given, but this setting is no longer used: remove it\n {2}CANDOR_MIN_MARGIN: .*\n.*CANDOR_MIN_ANSWERABILITY/s,
    );
    expect(configError({ CANDOR_MIN_RELEVANCE: '2' }).message).toContain(
      'CANDOR_MIN_RELEVANCE: "2" is given, but this setting is no longer used',
    );
  });

  it.each([
    ['CANDOR_MIN_ANSWERABILITY', '1'],
    ['CANDOR_MIN_ANSWERABILITY', '0'],
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['CANDOR_TOP_K', '0'],
    ['CANDOR_TRACE_CONTENT', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['CANDOR_KB', 'no spaces please'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not a url'],
    ['MICROSOFT_OPENID_METADATA_URL', 'login.botframework.us'],
    ['CANDOR_INGEST_MAX_DOCX_BYTES', '1000'],
    ['SLACK_BOT_TOKEN', 'my-token'],
    ['CANDOR_REVIEW_EMOJI', 'thumbsup'],
    ['CANDOR_CHANNELS', '{"slack":"C0HR"}'],
    ['CANDOR_CHANNELS', '[{"slack":"C0HR","kb":"hr","mentionOnly":"yes"}]'],
    ['CANDOR_LLM_PRICES', '{"gpt-4o":{"in":1}}'],
    ['OTEL_RESOURCE_ATTRIBUTES', 'no-equals-sign'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['CANDOR_CONSOLE_TOKEN', 'short'],
    ['CANDOR_CONSOLE_BASIC_AUTH', 'alice'],
  ])('rejects %s=%s with config_invalid, in a sentence: the variable, what was given, and a value that works', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.code).toBe('config_invalid');
    const line = error.message.split('\n').find((l) => l.startsWith(`  ${name}: `));
    expect(line, error.message).toMatch(
      new RegExp(`^  ${name}: ("[^\n]*"|the value given \\(not shown: it is a secret\\)) is not .+; for example ${name}=\\S+`),
    );
    // the validator's own words never reach a person
    expect(error.message).not.toMatch(/Invalid (input|option|URL)|received|\(given\)|\(got /);
  });

  it('names the exact range, the allowed values or the format a setting takes', () => {
    expect(configError({ PORT: 'abc' }).message).toContain('PORT: "abc" is not a whole number from 0 to 65535; for example PORT=3000');
    expect(configError({ CANDOR_MIN_ANSWERABILITY: '1' }).message).toContain(
      'CANDOR_MIN_ANSWERABILITY: "1" is not a number above 0 and below 1; for example CANDOR_MIN_ANSWERABILITY=0.6',
    );
    expect(configError({ LOG_LEVEL: 'loud' }).message).toContain(
      'LOG_LEVEL: "loud" is not one of debug, info, warn, error, silent; for example LOG_LEVEL=info',
    );
    expect(configError({ CANDOR_AGREEMENT_CRON: 'daily' }).message).toMatch(
      /CANDOR_AGREEMENT_CRON: "daily" is not a cron expression.*; for example CANDOR_AGREEMENT_CRON='0 6 \* \* \*'$/m,
    );
    expect(configError({ SLACK_SIGNING_SECRET: 'a-signing-secret' }).message).toContain(
      'SLACK_BOT_TOKEN: not set, but the Slack channel needs its bot token (OAuth & Permissions) beside its other settings; ' +
        'for example SLACK_BOT_TOKEN=xoxb-YOUR-BOT-TOKEN',
    );
  });

  it('every setting has an example, and the example is a value the setting takes', () => {
    for (const name of Object.keys(settingsSchema.shape)) {
      const example = settingExample(name);
      expect(example, name).toEqual(expect.any(String));
      let problem = '';
      try {
        loadConfig({ [name]: example });
      } catch (error) {
        problem = (error as Error).message;
      }
      expect(problem, `${name}=${example}`).not.toContain(`  ${name}: `);
    }
  });

  it('names every bad variable at once', () => {
    const error = configError({ PORT: 'abc', CANDOR_MIN_ANSWERABILITY: '2', HOST: 'localhost' });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('CANDOR_MIN_ANSWERABILITY');
    expect(error.message).not.toContain('HOST');
    // A person sees what they gave for ordinary settings.
    expect(error.message).toContain('"abc"');
  });

  it('does not echo a secret-looking value', () => {
    const url = 'mysql://admin:hunter2-s3cret@db.internal:3306/candor';
    const error = configError({ DATABASE_URL: url });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain(url);

    const token = configError({ SLACK_BOT_TOKEN: 'abc-my-real-token-value', SLACK_SIGNING_SECRET: 'sh0rt' });
    expect(token.code).toBe('config_invalid');
    expect(token.message).toContain('SLACK_BOT_TOKEN');
    expect(token.message).toContain('SLACK_SIGNING_SECRET');
    expect(token.message).not.toContain('my-real-token');
    expect(token.message).not.toContain('sh0rt');
  });

  it('does not echo secrets from a malformed CANDOR_CONFIG file', () => {
    // An unquoted value: V8's JSON.parse message quotes the text around the error.
    const path = files.write('leaky.json', '{"PORT": "3000", "SLACK_BOT_TOKEN": xoxb-1234-secret-token}');
    const error = configError({ CANDOR_CONFIG: path });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('leaky.json');
    expect(error.message).not.toContain('xoxb');
    expect(error.message).not.toContain('secret');
  });

  it('reads the CANDOR_CONFIG JSON file, and the environment overrides it', () => {
    const path = files.write(
      'candor.json',
      JSON.stringify({ PORT: 4000, HOST: '0.0.0.0', CANDOR_MIN_ANSWERABILITY: 0.6, CANDOR_CHECK_ANSWER_TYPE: false }),
    );
    const fromFile = loadConfig({ CANDOR_CONFIG: path });
    expect(fromFile.http).toMatchObject({ port: 4000, host: '0.0.0.0' });
    expect(fromFile.gate).toMatchObject({ minAnswerability: 0.6, checkAnswerType: false });

    const overridden = loadConfig({ CANDOR_CONFIG: path, PORT: '5000' });
    expect(overridden.http).toMatchObject({ port: 5000, host: '0.0.0.0' });
    expect(overridden.gate.minAnswerability).toBe(0.6);
  });

  it('names the variable when a value in the CANDOR_CONFIG file is bad', () => {
    const path = files.write('bad-value.json', JSON.stringify({ CANDOR_MIN_RELEVANCE: 3 }));
    const error = configError({ CANDOR_CONFIG: path });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('CANDOR_MIN_RELEVANCE');
  });

  it('reads CANDOR_EXPERTS from the environment or as JSON in the config file, and names what is wrong in it', () => {
    const entry = {
      kb: 'handbook',
      slack: 'C0EXPERTS',
      people: ['slack:U012', 'slack:group:S0HR', 'cli:dana'],
      autoAsk: true,
      reconfirmDays: 90,
    };
    expect(loadConfig({ CANDOR_EXPERTS: JSON.stringify([entry]) }).experts.kbs).toEqual([entry]);
    const fromFile = loadConfig({
      CANDOR_CONFIG: files.write('experts.json', JSON.stringify({ CANDOR_EXPERTS: [{ kb: 'hr', people: ['cli:ann'] }] })),
    });
    expect(fromFile.experts.kbs).toEqual([{ kb: 'hr', people: ['cli:ann'], autoAsk: false }]);
    expect(loadConfig({}).experts.kbs).toEqual([]);

    expect(configError({ CANDOR_EXPERTS: '[{"kb":"hr"' }).message).toMatch(
      /CANDOR_EXPERTS: "\[\{"kb":"hr"" is not a JSON list of KB experts \(this is not valid JSON\); for example CANDOR_EXPERTS='\[/,
    );
    const noPeople = configError({ CANDOR_EXPERTS: JSON.stringify([{ kb: 'hr', people: [] }]) });
    expect(noPeople.message).toMatch(/CANDOR_EXPERTS: ".*" is not valid: \[0\]\.people: name at least one expert; for example /);
    const badPerson = configError({ CANDOR_EXPERTS: JSON.stringify([{ kb: 'hr', people: ['U012'] }]) });
    expect(badPerson.message).toContain('expected "slack:U…", "slack:group:S…", "teams:ID", "cli:NAME" or "console:NAME"');
    // A console user (a CANDOR_CONSOLE_BASIC_AUTH name) answers gaps in the console.
    expect(loadConfig({ CANDOR_EXPERTS: JSON.stringify([{ kb: 'hr', people: ['console:ann'] }]) }).experts.kbs[0]?.people).toEqual([
      'console:ann',
    ]);
    const twice = configError({
      CANDOR_EXPERTS: JSON.stringify([
        { kb: 'hr', people: ['cli:a'] },
        { kb: 'hr', people: ['cli:b'] },
      ]),
    });
    expect(twice.message).toContain('KB "hr" is listed twice');
    expect(configError({ CANDOR_EXPERTS: JSON.stringify([{ kb: 'hr', people: ['cli:a'], slak: 'C1' }]) }).message).toMatch(/slak/);
  });

  it('reads CANDOR_REVIEWERS, each with its platform (a bare Slack or Teams id too); a name without one stops start-up', async () => {
    const reviewers = ['slack:U024BE7LH', 'slack:group:S0REVIEW', 'teams:5f1c9a2e-0000-4000-8000-000000000001', 'cli:dana', 'console:ann'];
    expect(loadConfig({ CANDOR_REVIEWERS: ` ${reviewers.join(' , ')} ,` }).review.reviewers).toEqual(reviewers);
    expect(loadConfig({ CANDOR_REVIEWERS: 'U024BE7LH,5f1c9a2e-0000-4000-8000-000000000001' }).review.reviewers).toHaveLength(2);
    expect(loadConfig({}).review.reviewers).toEqual([]);

    expect(configError({ CANDOR_REVIEWERS: 'slack:U024BE7LH,dana' }).message).toContain(
      'CANDOR_REVIEWERS: "slack:U024BE7LH,dana" is not valid: "dana" names no platform: write cli:dana to label from a terminal ' +
        'or console:dana in the console (chat reviewers are slack:U…, slack:group:S… or teams:<AAD id>); ' +
        'for example CANDOR_REVIEWERS=slack:U024BE7LH,cli:dana',
    );
    // at start, as CANDOR_EXPERTS is: not at the first label
    const serve = await candorInProcess(['serve'], { CANDOR_DATA_DIR: files.path('never-opened'), PORT: '0', CANDOR_REVIEWERS: 'dana' });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('CANDOR_REVIEWERS: "dana" is not valid');
  });

  it('reads CANDOR_CHANNELS (environment or config file) and names what is wrong in an entry', () => {
    const channels = [
      { slack: 'C0HR', kb: 'hr' },
      { slack: 'C0IT', kbs: ['it', 'security'], mentionOnly: true, reply: 'ephemeral' },
      { slack: 'dm', kb: 'hr', askers: 'slack:group:S0HR' },
      { teams: '19:abc@thread.tacv2', kb: 'it' },
    ];
    expect(loadConfig({ CANDOR_CHANNELS: JSON.stringify(channels) }).channels).toEqual([
      { platform: 'slack', where: 'C0HR', kbs: ['hr'], mentionOnly: false, reply: 'thread' },
      { platform: 'slack', where: 'C0IT', kbs: ['it', 'security'], mentionOnly: true, reply: 'ephemeral' },
      { platform: 'slack', where: 'dm', kbs: ['hr'], mentionOnly: false, reply: 'thread', askers: 'slack:group:S0HR' },
      { platform: 'teams', where: '19:abc@thread.tacv2', kbs: ['it'], mentionOnly: false, reply: 'thread' },
    ]);
    const fromFile = loadConfig({ CANDOR_CONFIG: files.write('channels.json', JSON.stringify({ CANDOR_CHANNELS: [channels[0]] })) });
    expect(fromFile.channels).toHaveLength(1);
    expect(loadConfig({}).channels).toEqual([]);

    expect(configError({ CANDOR_CHANNELS: '[{"slack":' }).message).toMatch(
      /CANDOR_CHANNELS: "\[\{"slack":" is not a JSON list of channels and their KBs \(this is not valid JSON\)/,
    );
    expect(configError({ CANDOR_CHANNELS: JSON.stringify([{ slack: 'C0HR' }]) }).message).toContain(
      '[0]: give exactly one of "kb" and "kbs"',
    );
    expect(configError({ CANDOR_CHANNELS: JSON.stringify([{ slack: 'C0HR', teams: 'x', kb: 'hr' }]) }).message).toContain(
      'give exactly one of "slack" and "teams"',
    );
    expect(configError({ CANDOR_CHANNELS: JSON.stringify([{ slack: '#hr', kb: 'hr' }]) }).message).toContain('expected a Slack channel id');
    expect(configError({ CANDOR_CHANNELS: JSON.stringify([{ slack: 'C0HR', kb: 'hr', mention: true }]) }).message).toMatch(/mention/);
    expect(configError({ CANDOR_CHANNELS: JSON.stringify([{ slack: 'dm', kb: 'hr', reply: 'ephemeral' }]) }).message).toContain(
      '"reply":"ephemeral" is for Slack channels',
    );
    expect(
      configError({
        CANDOR_CHANNELS: JSON.stringify([
          { slack: 'C0HR', kb: 'hr' },
          { slack: 'C0HR', kb: 'it' },
        ]),
      }).message,
    ).toContain('slack "C0HR" is listed twice');
  });

  it('names, in one line, the mapped conversations of a chat channel that is off', () => {
    const channels = loadConfig({
      CANDOR_CHANNELS: JSON.stringify([
        { slack: 'C0HR', kb: 'hr' },
        { slack: 'C0IT', kb: 'it', askers: 'slack:group:S0IT' },
        { slack: 'C0IT', kb: 'hr' },
        { teams: '19:abc@thread.tacv2', kb: 'it' },
      ]),
    }).channels;
    expect(channelsOff(channels, { slack: true, teams: true })).toBeNull();
    expect(channelsOff([], { slack: false, teams: false })).toBeNull();
    expect(channelsOff(channels, { slack: false, teams: true })).toBe(
      'CANDOR_CHANNELS maps Slack C0HR, C0IT, but Slack is off, so nobody can ask there: ' +
        'set SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN), or remove those entries',
    );
    expect(channelsOff(channels, { slack: false, teams: false })).toBe(
      'CANDOR_CHANNELS maps Slack C0HR, C0IT and Teams 19:abc@thread.tacv2, but Slack and Teams are off, so nobody can ask there: ' +
        'set SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN) and MICROSOFT_APP_ID (with MICROSOFT_APP_PASSWORD), ' +
        'or remove those entries',
    );
  });

  it('explains an unreadable or malformed CANDOR_CONFIG file', () => {
    const missing = configError({ CANDOR_CONFIG: files.path('nope.json') });
    expect(missing.code).toBe('config_invalid');
    expect(missing.message).toContain('CANDOR_CONFIG');
    expect(missing.message).toContain('nope.json');

    const notJson = configError({ CANDOR_CONFIG: files.write('broken.json', '{ PORT: 1') });
    expect(notJson.message).toMatch(/^CANDOR_CONFIG: .*broken\.json is not valid JSON/);

    const nested = configError({ CANDOR_CONFIG: files.write('nested.json', JSON.stringify({ http: { port: 1 } })) });
    expect(nested.message).toContain('must be a flat JSON object');
  });

  describe('the standard OpenTelemetry variables', () => {
    it('read OTEL_RESOURCE_ATTRIBUTES (percent-decoded); OTEL_SERVICE_NAME wins over its service.name', () => {
      const both = loadConfig({
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,deployment.environment.name=prod,team=kb%20owners',
        OTEL_SERVICE_NAME: 'candor-eu',
      });
      expect(both.telemetry).toMatchObject({
        serviceName: 'candor-eu',
        resourceAttributes: { 'deployment.environment.name': 'prod', team: 'kb owners' },
      });
      expect(loadConfig({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs' }).telemetry.serviceName).toBe('from-attrs');
    });

    it('default to OTLP over HTTP/protobuf, parent-based sampling, no extra headers', () => {
      expect(loadConfig({}).telemetry).toMatchObject({
        otlpProtocol: 'http/protobuf',
        otlpHeaders: {},
        sampler: { name: 'parentbased_always_on', ratio: 1 },
        otlpTracesUrl: undefined,
      });
    });

    it('a traces endpoint is used as given; the general endpoint gets /v1/traces; either turns OTLP on', () => {
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).telemetry).toMatchObject({
        exporter: 'otlp',
        otlpTracesUrl: 'http://collector:4318/v1/traces',
      });
      const specific = loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://vendor.example/otlp/traces',
      });
      expect(specific.telemetry).toMatchObject({ exporter: 'otlp', otlpTracesUrl: 'https://vendor.example/otlp/traces' });
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).telemetry.exporter).toBe('none');
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).telemetry
          .otlpProtocol,
      ).toBe('http/json');
    });

    it.each([
      ['OTEL_RESOURCE_ATTRIBUTES', 'no-equals-sign'],
      ['OTEL_RESOURCE_ATTRIBUTES', 'k=%E0%A4%A'],
      ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
      ['OTEL_TRACES_SAMPLER', 'sometimes'],
      ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
      ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'collector:4318'],
      ['CANDOR_CONSOLE_TOKEN', 'short'],
      ['CANDOR_CONSOLE_BASIC_AUTH', 'alice'],
    ])('reject %s=%s naming the variable', (name, value) => {
      expect(configError({ [name]: value }).message).toMatch(new RegExp(`^\\s*${name}: `, 'm'));
    });

    it('never echo exporter headers or console credentials', () => {
      const headers = configError({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key' });
      expect(headers.message).toContain('OTEL_EXPORTER_OTLP_HEADERS');
      expect(headers.message).not.toContain('api-key');
      const basic = configError({ CANDOR_CONSOLE_BASIC_AUTH: 'alice:short' });
      expect(basic.message).not.toContain('short');
    });
  });

  it('turns the console on with a token or basic-auth users, and leaves it off (refusing) otherwise', () => {
    expect(loadConfig({}).console).toEqual({ token: undefined, basicAuth: [], enabled: false });
    expect(loadConfig({ CANDOR_CONSOLE_BASIC_AUTH: 'alice:correct horse,bob:battery staple' }).console).toEqual({
      token: undefined,
      basicAuth: [
        { user: 'alice', password: 'correct horse' },
        { user: 'bob', password: 'battery staple' },
      ],
      enabled: true,
    });
    expect(loadConfig({ CANDOR_CONSOLE_TOKEN: 'a'.repeat(24) }).console.enabled).toBe(true);
  });
});
