import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// Dependencies are kept current where they still run on the Node versions we support (package.json engines:
// 20.19 and later, and Node 22 and 24). A major upgrade that needs a newer Node (openai 7, pdfjs-dist 6 and
// OpenTelemetry 0.300+ need Node 22) fails here, with the package named, instead of on a user's machine.
const ROOT = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[]; dev?: boolean; optional?: boolean }>;
};
/** The Node versions of each supported line that the tools (vite, rolldown) also accept: 22 from 22.13. */
const SUPPORTED = ['20.19.0', '20.20.0', '22.13.0', '24.0.0'];
/** What the product itself runs on: every Node 22 (runtime dependencies only). */
const RUNTIME_ALSO = ['22.0.0'];

describe('dependencies and the Node versions we support', () => {
  it('package.json says Node 20.19 or later', () => {
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(semver.satisfies('20.18.0', pkg.engines.node)).toBe(false);
  });

  it('every installed package (runtime and dev, transitive too) accepts each supported Node version; runtime ones every Node 22', () => {
    const refusing: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (!path || !range) continue;
      checked++;
      for (const version of entry.dev ? SUPPORTED : [...SUPPORTED, ...RUNTIME_ALSO]) {
        if (!semver.satisfies(version, range))
          refusing.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} (node ${range}) refuses ${version}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(refusing).toEqual([]);
  });

  it('a package that needs Node 22 would be caught (the check can fail)', () => {
    expect(semver.satisfies('20.19.0', '>=22.0.0')).toBe(false); // openai 7's engines
    expect(semver.satisfies('20.19.0', '>=22.13.0 || >=24')).toBe(false); // pdfjs-dist 5.7+ and 6
  });
});
