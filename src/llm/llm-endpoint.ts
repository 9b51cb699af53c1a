/** Who serves the model and where: `gen_ai.provider.name`, `server.address`, `server.port` on every model call. */
export interface LlmEndpoint {
  readonly providerName: string;
  readonly serverAddress: string;
  readonly serverPort: number;
}

/** Hosts whose provider has a name in the GenAI semantic conventions (beyond OpenAI and Azure OpenAI). */
const KNOWN_HOSTS: Readonly<Record<string, string>> = {
  'api.openai.com': 'openai',
  'api.groq.com': 'groq',
  'api.mistral.ai': 'mistral_ai',
  'api.deepseek.com': 'deepseek',
  'api.x.ai': 'x_ai',
  'api.perplexity.ai': 'perplexity',
  'generativelanguage.googleapis.com': 'gcp.gemini',
};

/** Ollama's default port. */
const OLLAMA_PORT = 11434;

/**
 * The endpoint of the configured model. The provider name is CANDOR_LLM_PROVIDER when set; else Azure OpenAI
 * (AZURE_OPENAI_ENDPOINT or a *.openai.azure.com base URL) is `azure.ai.openai`, api.openai.com is `openai`,
 * a host named like Ollama or on port 11434 is `ollama`, a few known vendors go by their convention name,
 * and any other OpenAI-compatible server (vLLM, LiteLLM, a gateway) is `openai`, the API it speaks.
 */
export function llmEndpoint(settings: {
  readonly provider: 'openai' | 'openai-compatible' | 'azure';
  readonly baseUrl?: string | undefined;
  readonly azure?: { readonly endpoint: string } | undefined;
  readonly providerName?: string | undefined;
}): LlmEndpoint {
  const raw = settings.provider === 'azure' ? settings.azure?.endpoint : settings.provider === 'openai' ? undefined : settings.baseUrl;
  const url = parse(raw ?? 'https://api.openai.com/v1');
  const serverAddress = url?.hostname.replace(/^\[|\]$/g, '') ?? 'unknown';
  const serverPort = url ? (url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443) : 443;
  return { providerName: settings.providerName ?? guessProvider(settings.provider, serverAddress, serverPort), serverAddress, serverPort };
}

function guessProvider(provider: 'openai' | 'openai-compatible' | 'azure', host: string, port: number): string {
  if (provider === 'azure' || host.endsWith('.openai.azure.com')) return 'azure.ai.openai';
  if (host.endsWith('.services.ai.azure.com') || host.endsWith('.models.ai.azure.com')) return 'azure.ai.inference';
  if (port === OLLAMA_PORT || host.includes('ollama')) return 'ollama';
  return KNOWN_HOSTS[host] ?? 'openai';
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
