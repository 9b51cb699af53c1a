import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, stdSerializers, type DestinationStream, type LoggerOptions } from 'pino';
import { prettyFactory } from 'pino-pretty';

import { describeError } from './errors.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

/** `auto`: readable lines when stderr is a terminal (and no writer is given), JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface LogOptions {
  /** Where lines go instead of stderr (tests). @default stderr */
  readonly write?: (line: string) => void;
  /** @default 'auto' */
  readonly format?: LogFormat;
  /** Keep question and answer text fields (CANDOR_TRACE_CONTENT=true); secrets are redacted regardless. @default false */
  readonly userText?: boolean;
}

/** Field names whose values are secrets, at the top of a line, one level down, and in headers. */
const SECRET_KEYS = [
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'botToken',
  'appToken',
  'secret',
  'signingSecret',
  'clientSecret',
  'password',
  'apiKey',
  'api_key',
  'salt',
  'authorization',
  'cookie',
  'databaseUrl',
  'connectionString',
];
const HEADER_KEYS = ['.authorization', '.cookie', '["set-cookie"]', '["x-api-key"]', '["proxy-authorization"]'];
/** Field names that hold what people typed or were told. */
const USER_TEXT_KEYS = ['question', 'typedQuestion', 'answer', 'reply', 'text', 'comment', 'completion'];

/** The paths pino blanks out (`[redacted]`): secrets always, user text unless asked to keep it. */
export function redactedPaths(userText = false): string[] {
  const keys = [...SECRET_KEYS, ...(userText ? [] : USER_TEXT_KEYS)];
  return [...keys, ...keys.map((k) => `*.${k}`), ...HEADER_KEYS.flatMap((h) => [`headers${h}`, `*.headers${h}`])];
}

/**
 * Structured logs through pino, on stderr (stdout is for command output): JSON
 * lines, or readable lines when stderr is a terminal. A line written inside a
 * span carries `trace_id`, `span_id` and `trace_flags` (the OpenTelemetry
 * names for logs outside OTLP), so it can be found from its trace and back.
 */
export function createLog(threshold: LogLevel | 'silent', options: LogOptions | ((line: string) => void) = {}): Log {
  const { write, format = 'auto', userText = false } = typeof options === 'function' ? { write: options } : options;
  const readable = format === 'pretty' || (format === 'auto' && !write && process.stderr.isTTY === true);
  const logger = pino(loggerOptions(threshold, userText, readable), destination(write, readable));
  return (level, message, fields) => {
    if (fields === undefined) logger[level](message);
    else logger[level](fields, message);
  };
}

function loggerOptions(threshold: LogLevel | 'silent', userText: boolean, readable: boolean): LoggerOptions {
  return {
    level: threshold,
    // No pid or hostname: where a line came from is the collector's (or the terminal's) to say.
    base: undefined,
    messageKey: 'message',
    errorKey: 'error',
    timestamp: pino.stdTimeFunctions.isoTime,
    // Level names in JSON ("warn", not 40); the readable form colours pino's numbers itself.
    ...(readable ? {} : { formatters: { level: (label: string) => ({ level: label }) } }),
    redact: { paths: redactedPaths(userText), censor: '[redacted]' },
    serializers: { error: errorField, err: errorField },
    mixin: traceFields,
  };
}

function destination(write: ((line: string) => void) | undefined, readable: boolean): DestinationStream {
  if (readable) {
    // Formatted in the writing call (not pino-pretty's stream transport): nothing is left buffered at an exit.
    const toTerminal = !write;
    const format = prettyFactory({
      messageKey: 'message',
      errorLikeObjectKeys: ['error', 'err'],
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'trace_flags',
      singleLine: true,
      colorize: toTerminal && process.stderr.isTTY === true && process.stderr.hasColors(),
    });
    const out = write ?? ((text: string) => void process.stderr.write(text));
    return { write: (line: string) => out(format(line)) };
  }
  // process.stderr, looked up at each line: one writer for log lines and the CLI's own stderr text (their order kept),
  // synchronous for files, pipes and terminals on Linux (the last lines before an exit are not lost).
  return { write: write ?? ((line: string) => void process.stderr.write(line)) };
}

/** The active span's ids, as the OpenTelemetry log data model names them outside OTLP. */
function traceFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId, trace_flags: context.traceFlags.toString(16).padStart(2, '0') };
}

/**
 * An error as one field of its line: its type (as pino's serializer names it),
 * code and stack frames, with the message from describeError (a failed query's
 * parameters can hold user text, so neither the driver's message nor the
 * error's own properties are copied). A string (describeError's words) stays as it is.
 */
function errorField(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const { type } = stdSerializers.err(value);
  const code = (value as NodeJS.ErrnoException).code;
  const frames = (value.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim());
  return { type, message: describeError(value), ...(typeof code === 'string' ? { code } : {}), stack: frames.join('\n') };
}

/** The longest a library's log text may run in one line of ours, and the longest unbroken run (a key, a token) in it. */
const FOREIGN_LINE_MAX = 300;
const FOREIGN_RUN_MAX = 32;
/** A TypeError that quotes the value it was given (`… in <the whole payload>`): the value keeps this much. */
const QUOTED_VALUE = /(Cannot use 'in' operator to search for '[^']{0,64}' in )(.*)$/s;
const QUOTED_MAX = 16;

/**
 * What a library (Bolt, the Bot Framework) logged, as one short line for a message of ours: errors as describeError
 * words them, other objects by their kind only (they may hold what people typed, tokens or keys), line breaks
 * folded, a value quoted whole in an error message and any long run (a key, a payload) cut to a prefix with its
 * length, and the whole cut to a few hundred characters.
 */
export function foreignText(parts: readonly unknown[]): string {
  const text = parts
    .map(foreignPart)
    .filter((p) => p !== '')
    .join(' ')
    .replace(QUOTED_VALUE, (_all, head: string, value: string) => `${head}${cut(value, QUOTED_MAX)}`)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(new RegExp(`\\S{${FOREIGN_RUN_MAX + 1},}`, 'g'), (run) => cut(run, FOREIGN_RUN_MAX));
  return cut(text, FOREIGN_LINE_MAX);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;
}

function foreignPart(part: unknown): string {
  if (typeof part === 'string') return part;
  if (typeof part === 'number' || typeof part === 'boolean' || typeof part === 'bigint') return String(part);
  if (part instanceof Error) return `${part.name}: ${describeError(part)}`;
  if (part === null || part === undefined) return '';
  return `[${(part as object).constructor?.name ?? 'object'}]`;
}
