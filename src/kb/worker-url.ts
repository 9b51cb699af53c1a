import { fileURLToPath } from 'node:url';
import type { PluginBuild } from 'esbuild';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const bundled = new Map<string, Promise<URL>>();

/** The module the parse worker runs (see workerUrl). */
export function parseWorkerUrl(): Promise<URL> {
  return workerUrl('ingest/parse-worker');
}

/**
 * The module a worker runs, named by its path under src/kb without extension. Built: the .js file. From source
 * (tsx, vitest) it is TypeScript, which a Node 20 worker cannot load (it ignores loader flags, and tsx's own API
 * would put pdf.js through its transform: a second and some 350 MB per worker). So it is bundled once per
 * process by esbuild (a devDependency, as tsx is) into a data: URL whose packages are imported by absolute URL,
 * natively.
 */
export function workerUrl(module: string): Promise<URL> {
  const url = new URL(`./${module}.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
  if (!FROM_SOURCE) return Promise.resolve(url);
  let made = bundled.get(module);
  if (!made) {
    made = bundle(url);
    bundled.set(module, made);
  }
  return made;
}

async function bundle(worker: URL): Promise<URL> {
  const { build } = await import('esbuild');
  const packageByUrl = {
    name: 'package-by-url',
    setup(setup: PluginBuild) {
      setup.onResolve({ filter: /^[^./]/ }, ({ path }) => ({
        path: path.startsWith('node:') ? path : import.meta.resolve(path),
        external: true,
      }));
    },
  };
  const result = await build({
    entryPoints: [fileURLToPath(worker)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [packageByUrl],
  });
  return new URL(`data:text/javascript,${encodeURIComponent(result.outputFiles[0]?.text ?? '')}`);
}
