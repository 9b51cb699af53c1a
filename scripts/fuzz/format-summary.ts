import type { FailureRecord, FuzzSummary } from './fuzz-summary.js';

/** The summary for a person: counts, then every failure kind with its first request. */
export function formatSummary(s: FuzzSummary): string {
  const lines = [
    `${s.ok ? 'PASS' : 'FAIL'}: ${s.requests} requests in ${(s.durationMs / 1000).toFixed(1)} s (seed ${s.seed})`,
    `by status: ${entries(s.byStatus)}`,
    ...Object.entries(s.byEndpoint)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([endpoint, e]) => `  ${endpoint.padEnd(16)} ${String(e.requests).padStart(6)}  slowest ${e.maxMs} ms  ${entries(e.byStatus)}`),
    `healthz probes: ${s.probes.sent}, slowest ${s.probes.maxMs} ms, ${s.probes.over1s} over 1 s, ${s.probes.stalls} stalls`,
    `rss (${s.rssMethod}): ${s.rssStartMb ?? '?'} MB after warm-up → ${s.rssEndMb ?? '?'} MB at the end (growth ${s.rssGrowthMb ?? '?'} MB, bound ${s.rssBoundMb} MB; peak ${s.rssPeakMb ?? '?'} MB)`,
    `rss readings: ${s.rssSeriesMb.join(' ')}`,
    `exits: ${s.exits.length}, 5xx: ${s.fiveXX.count}, hangs: ${s.hangs.count} (answers over 1 s: ${s.slow.count})`,
  ];
  for (const reason of s.failures) lines.push(`  ✗ ${reason}`);
  for (const [title, list] of [
    ['5xx', s.fiveXX.first],
    ['hangs', s.hangs.first],
    ['answers over 1 s', s.slow.first],
  ] as const) {
    if (list.length > 0) lines.push('', `first ${title}:`, ...list.flatMap(describe));
  }
  for (const exit of s.exits) lines.push('', `server exit (code ${exit.code}, signal ${exit.signal}); its last stderr:`, exit.stderrTail);
  if (s.serverErrors.length > 0) {
    lines.push('', 'server stderr errors (grouped):');
    for (const e of s.serverErrors) lines.push(`  ×${e.count} ${e.key}`, `      ${e.first}`);
  }
  return `${lines.join('\n')}\n`;
}

function describe(f: FailureRecord): string[] {
  return [
    `  ${f.kind} → ${f.status ?? f.outcome} in ${f.ms} ms: ${f.request.method} ${JSON.stringify(f.request.target)}`,
    ...f.request.headers.map((h) => `      ${JSON.stringify(h)}`),
    `      body (${f.request.bodyBytes} bytes): ${JSON.stringify(f.request.bodyStart)}`,
    ...(f.response ? [`      response: ${f.response}`] : []),
  ];
}

function entries(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}:${n}`)
    .join(' ');
}
