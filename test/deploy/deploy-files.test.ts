import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

import { loadConfig, settingsSchema } from '../../src/config.js';

// No Docker engine or cluster runs here: these check what can be checked without one. The image's start
// command is run against the built package in test/package/package.test.ts; promtool checks the
// Prometheus configuration and rules in .ci/run.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = join(ROOT, 'deploy');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** Every setting src/config.ts reads: the keys of its schema, and CANDOR_CONFIG (the settings file). */
const KNOWN = new Set([...Object.keys(settingsSchema.shape), 'CANDOR_CONFIG']);

type Env = Record<string, string>;
type ComposeService = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Env;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
};

describe('deploy/Dockerfile', () => {
  const text = read('deploy/Dockerfile');
  const stages = text.split(/^FROM /m).slice(1);
  const final = stages[stages.length - 1] ?? '';

  it('is multi-stage: the build stage compiles and prunes to production dependencies; the final stage copies only what runs', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/RUN npm ci\b/);
    expect(stages[0]).toMatch(/npm run build && npm prune --omit=dev/);
    expect(final).toMatch(/^node:\$\{NODE_VERSION\}-bookworm-slim\n/);
    expect(text).toMatch(/^ARG NODE_VERSION=(22|24)$/m);
    const copied = [...final.matchAll(/^COPY (?:--\S+ )*(\S+) /gm)].map((m) => m[1]);
    expect(copied).toEqual(['/app/package.json', '/app/node_modules', '/app/dist', 'bin']);
    expect(final).not.toMatch(/COPY .*\b(src|test|bench)\b/);
  });

  it('runs as a non-root user, in production, with a HEALTHCHECK on /healthz and node handling SIGTERM', () => {
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/NODE_ENV=production/);
    expect(final).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(final).toMatch(/^ENTRYPOINT \["node", "bin\/candor\.js"\]$/m);
    expect(final).toMatch(/^CMD \["serve"\]$/m);
    expect(existsSync(join(ROOT, 'bin/candor.js'))).toBe(true);
    expect(read('bin/candor.js')).toContain("'../dist/src/cli.js'");
  });

  it('sets only settings Candor knows, and they load', () => {
    const env = Object.fromEntries(
      [...final.matchAll(/^\s*(?:ENV )?([A-Z_]+)=(\S+?)\s*\\?$/gm)].map((m) => [m[1] as string, m[2] as string]),
    );
    expect(Object.keys(env).sort()).toEqual(['CANDOR_DATA_DIR', 'HOST', 'NODE_ENV', 'PORT']);
    for (const name of Object.keys(env)) expect(KNOWN, name).toContain(name);
    expect(loadConfig(env)).toMatchObject({ http: { host: '0.0.0.0', port: 3000 }, production: true });
  });

  it('copies only files that exist, and .dockerignore keeps local builds and modules out', () => {
    for (const [, source] of text.matchAll(/^COPY (?!--from)(?:--\S+ )*(\S+) /gm))
      expect(existsSync(join(ROOT, source as string)), source).toBe(true);
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.candor', 'test']));
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const replicas = Object.keys(services).filter((name) => /^candor-\d+$/.test(name));
  /** Compose's ${VAR:?message} and ${VAR:-default} filled in as an operator would. */
  const substitute = (env: Env): Env =>
    Object.fromEntries(
      Object.entries(env).map(([k, v]) => [
        k,
        String(v).replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_, name: string) => `${name.toLowerCase()}-0123456789abcdef`),
      ]),
    );

  it('has PostgreSQL, a migration step, two Candor replicas, an OpenTelemetry Collector, Prometheus and Grafana', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'migrate', 'otel-collector', 'prometheus', 'grafana']));
    expect(replicas).toEqual(['candor-1', 'candor-2']);
    expect(services.migrate?.command).toEqual(['migrate']);
    for (const name of replicas) {
      expect(services[name]?.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(services[name]?.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(services.migrate?.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('every long-running service has a health check (the collector image has no shell to run one)', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'migrate' || name === 'otel-collector') continue;
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(1);
    }
    for (const name of replicas) expect(services[name]?.healthcheck?.test?.join(' ')).toContain('/healthz');
  });

  it('sets only settings Candor knows, and each replica’s environment loads: PostgreSQL, the console on, traces to the collector', () => {
    for (const name of ['migrate', ...replicas]) {
      const env = substitute(services[name]?.environment ?? {});
      for (const key of Object.keys(env)) expect(KNOWN, `${name}: ${key}`).toContain(key);
      const config = loadConfig(env);
      expect(config.store.databaseUrl).toMatch(/^postgres:\/\/candor:.*@postgres:5432\/candor$/);
      expect(config.telemetry).toMatchObject({ exporter: 'otlp', otlpTracesUrl: 'http://otel-collector:4318/v1/traces' });
      expect(config.console.enabled).toBe(true);
    }
    expect(services['candor-1']?.environment?.OTEL_RESOURCE_ATTRIBUTES).not.toBe(
      services['candor-2']?.environment?.OTEL_RESOURCE_ATTRIBUTES,
    );
  });

  it('Prometheus scrapes both replicas and loads dashboards/alerts.yaml; Grafana is provisioned with the dashboard', () => {
    const prometheus = parse(read('deploy/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const job = prometheus.scrape_configs.find((c) => c.job_name === 'candor');
    expect(job?.static_configs.flatMap((c) => c.targets).sort()).toEqual(replicas.map((r) => `${r}:3000`));
    const mounts = Object.fromEntries((services.prometheus?.volumes ?? []).map((v) => v.split(':')).map(([from, to]) => [to, from]));
    expect(mounts[prometheus.rule_files[0] as string]).toBe('../dashboards/alerts.yaml');
    const grafanaMounts = (services.grafana?.volumes ?? []).map((v) => v.split(':'));
    expect(grafanaMounts).toEqual(
      expect.arrayContaining([['../dashboards/candor-grafana.json', '/var/lib/grafana/dashboards/candor-grafana.json', 'ro']]),
    );
    const datasource = parse(read('deploy/grafana/provisioning/datasources/prometheus.yaml')) as {
      datasources: { url: string; isDefault: boolean }[];
    };
    expect(datasource.datasources[0]).toMatchObject({ url: 'http://prometheus:9090', isDefault: true });
    const provider = parse(read('deploy/grafana/provisioning/dashboards/candor.yaml')) as { providers: { options: { path: string } }[] };
    expect(provider.providers[0]?.options.path).toBe('/var/lib/grafana/dashboards');
  });

  it('mounts only files that exist; the collector receives OTLP/HTTP where the replicas send it', () => {
    for (const service of Object.values(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('.')) expect(existsSync(resolve(DEPLOY, source)), source).toBe(true);
      }
    }
    const collector = parse(read('deploy/otel-collector.yaml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      service: { pipelines: { traces: { receivers: string[] } } };
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(collector.service.pipelines.traces.receivers).toContain('otlp');
  });
});

describe('deploy/kubernetes', () => {
  const kustomization = parse(read('deploy/kubernetes/kustomization.yaml')) as { resources: string[] };
  const docs = [...kustomization.resources, 'secret.example.yaml'].flatMap((file) =>
    parseAllDocuments(read(`deploy/kubernetes/${file}`)).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string }; [key: string]: unknown },
    ),
  );
  // Manifests are free-form YAML: read them loosely, assert what matters.
  const byKind = (kind: string) => docs.find((d) => d.kind === kind) as Record<string, any>;
  const deployment = byKind('Deployment');
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;

  it('lists resources that exist and parse, each with a kind', () => {
    for (const file of kustomization.resources) expect(existsSync(join(DEPLOY, 'kubernetes', file)), file).toBe(true);
    expect(docs.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Secret', 'Service']);
  });

  it('the Deployment has readiness, liveness and startup probes, resource requests and a memory limit, and runs as non-root', () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.livenessProbe).toBeDefined();
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.stringMatching(/^\d+Mi$/) });
    expect(container.resources.limits.memory).toMatch(/^\d+Mi$/);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
  });

  it('migrates in an init step before serving', () => {
    expect(pod.initContainers.map((c: { args: string[] }) => c.args)).toEqual([['migrate']]);
    expect(container.args).toEqual(['serve']);
  });

  it('reads secrets by reference from the Secret, whose example holds every key referenced; sets only settings Candor knows', () => {
    const secret = byKind('Secret');
    const configMap = byKind('ConfigMap');
    for (const c of [...pod.initContainers, container]) {
      expect(c.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
      const env = c.env as {
        name: string;
        value?: string;
        valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: unknown };
      }[];
      // A variable only used inside another's value ($(POD_NAME)) is Kubernetes plumbing, not a setting.
      const helpers = new Set(env.flatMap((e) => [...(e.value ?? '').matchAll(/\$\((\w+)\)/g)].map((m) => m[1])));
      for (const e of env) {
        if (helpers.has(e.name)) expect(e.valueFrom?.fieldRef, e.name).toBeDefined();
        else expect(KNOWN, e.name).toContain(e.name);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) expect([ref.name, Object.keys(secret.stringData)]).toEqual([secret.metadata.name, expect.arrayContaining([ref.key])]);
      }
    }
    for (const key of Object.keys(configMap.data)) expect(KNOWN, key).toContain(key);
    expect(JSON.stringify(configMap.data)).not.toMatch(/TOKEN|SECRET|PASSWORD|API_KEY|DATABASE_URL/);
    const resolved = {
      ...configMap.data,
      ...secret.stringData,
      OTEL_RESOURCE_ATTRIBUTES: 'k8s.pod.name=candor-abc,k8s.namespace.name=bots',
    };
    expect(loadConfig(resolved)).toMatchObject({
      store: { databaseUrl: expect.stringMatching(/^postgres:/) },
      http: { host: '0.0.0.0', port: 3000 },
    });
  });

  it('the Service and the disruption budget select the pods; the Service targets the named port', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(labels).toMatchObject(byKind('Service').spec.selector);
    expect(labels).toMatchObject(byKind('PodDisruptionBudget').spec.selector.matchLabels);
    expect(byKind('Service').spec.ports[0].targetPort).toBe('http');
  });
});
