import { fileURLToPath } from 'node:url';
import type { PluginBuild } from 'esbuild';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER = new URL(`./ingest/parse-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
let bundled: Promise<URL> | undefined;

/**
 * The module the parse worker runs. Built: parse-worker.js beside this file. From source (tsx, vitest) it is
 * TypeScript, which a Node 20 worker cannot load (it ignores loader flags, and tsx's own API would put pdf.js
 * through its transform: a second and some 350 MB per worker). So it is bundled once per process by esbuild
 * (a devDependency, as tsx is) into a data: URL whose packages are imported by absolute URL, natively.
 */
export function parseWorkerUrl(): Promise<URL> {
  if (!FROM_SOURCE) return Promise.resolve(WORKER);
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<URL> {
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
    entryPoints: [fileURLToPath(WORKER)],
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
