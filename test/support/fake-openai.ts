import { startFakeServer, type FakeResponse, type FakeServer, type RecordedCall } from '../channels/fake-http.js';

/** A scripted OpenAI-compatible server on loopback: POST /v1/chat/completions answers from a queue of steps. */
export interface FakeOpenAi {
  readonly server: FakeServer;
  /** Base URL to give as OPENAI_BASE_URL. */
  readonly baseUrl: string;
  /** The next calls' responses, in order; each step may look at the request. */
  script(...steps: Step[]): void;
  /** The next embeddings requests fail with these responses (then embeddings work again). */
  failEmbeddings(...responses: FakeResponse[]): void;
  /** Chat completion requests received. */
  chatCalls(): RecordedCall[];
  close(): Promise<void>;
}

export type Step = FakeResponse | ((call: RecordedCall) => FakeResponse);

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: Step[] = [];
  const embeddingFailures: FakeResponse[] = [];
  const server = await startFakeServer((call) => {
    if (call.path === '/v1/embeddings') {
      const failing = embeddingFailures.shift();
      if (failing) return failing;
      const input = call.body.input as string[];
      return {
        body: {
          object: 'list',
          model: String(call.body.model),
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
          usage: { prompt_tokens: input.join(' ').split(/\s+/).length, total_tokens: input.join(' ').split(/\s+/).length },
        },
      };
    }
    if (call.path !== '/v1/chat/completions')
      return { status: 404, body: { error: { message: `no route ${call.path}`, type: 'invalid_request_error' } } };
    const step = queue.shift();
    if (!step) return { status: 500, body: { error: { message: 'fake OpenAI: no scripted response left', type: 'server_error' } } };
    return typeof step === 'function' ? step(call) : step;
  });
  return {
    server,
    baseUrl: `${server.url}/v1`,
    script: (...steps) => void queue.push(...steps),
    failEmbeddings: (...responses) => void embeddingFailures.push(...responses),
    chatCalls: () => server.callsTo('/v1/chat/completions'),
    close: () => server.close(),
  };
}

export const FAKE_MODEL = 'fake-model-2026-11';

/** A chat.completion body as OpenAI sends it. */
export function completion(
  content: string,
  options: { finish?: string; usage?: { input: number; output: number }; refusal?: string } = {},
): FakeResponse {
  const usage = options.usage ?? { input: 211, output: 37 };
  return {
    body: {
      id: 'chatcmpl-fake-1',
      object: 'chat.completion',
      created: 1_763_800_000,
      model: FAKE_MODEL,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: options.refusal ?? null },
          finish_reason: options.finish ?? 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    },
  };
}

/** The model's JSON reply. */
export function reply(answerable: boolean, answer: string, citations: number[], reasoning = 'Fact checked.'): FakeResponse {
  return completion(JSON.stringify({ answerable, reasoning, answer, citations }));
}

/** The number the prompt gave the fact containing `text` ("[2] …" → 2). */
export function factNumber(call: RecordedCall, text: string): number {
  const messages = call.body.messages as { role: string; content: string }[];
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const line = user.split('\n').find((l) => l.includes(text));
  const n = line ? /^\[(\d+)\]/.exec(line)?.[1] : undefined;
  if (!n) throw new Error(`the prompt holds no fact with "${text}"`);
  return Number(n);
}

/**
 * A deterministic stand-in for an embedding model: one dimension per concept,
 * counting the concept's words (synonyms included) in the text, so that
 * "vacation" lands near "annual leave" as a real model would place it.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['leave', 'holiday', 'vacation', 'days off'],
  ['parking', 'car park', 'permit'],
  ['canteen', 'breakfast', 'lunch', 'food'],
  ['laptop', 'computer', 'it service'],
  ['expense', 'receipt', 'reimburse'],
  ['fire', 'assembly', 'evacuat'],
  ['medical', 'sick', 'doctor'],
  ['staff', 'employee', 'worker'],
];
export function conceptVector(text: string): number[] {
  const lower = text.toLowerCase();
  return [...CONCEPTS.map((words) => words.reduce((n, w) => n + (lower.split(w).length - 1), 0)), 0.05];
}
