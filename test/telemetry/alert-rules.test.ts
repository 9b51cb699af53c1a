import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// promtool checks and unit-tests the rules themselves (.ci/run); this keeps the files around them honest.
const read = (name: string) => readFileSync(new URL(`../../dashboards/${name}`, import.meta.url), 'utf8');

interface Rule {
  alert: string;
  expr: string;
  labels?: { severity?: string };
  annotations?: { runbook_url?: string; summary?: string };
}

describe('alert rules', () => {
  const rules = (parse(read('alerts.yaml')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
  const tests = parse(read('alerts.test.yaml')) as {
    rule_files: string[];
    tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
  };
  /** GitHub's heading anchors: lower case, spaces to dashes, punctuation dropped. */
  const anchors = new Set(
    [...read('runbook.md').matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
      (m[1] as string)
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s+/g, '-'),
    ),
  );

  it('include a target-down alert on the scrape job', () => {
    expect(rules.find((r) => r.alert === 'CandorTargetDown')?.expr).toMatch(/^up\{job=~?"candor[^"]*"\} == 0$/);
  });

  it('each has a severity, a summary and a runbook_url pointing at its own section of dashboards/runbook.md', () => {
    for (const rule of rules) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(critical|warning|info)$/);
      expect(rule.annotations?.summary, rule.alert).toEqual(expect.any(String));
      const anchor = rule.annotations?.runbook_url?.split('#')[1];
      expect(anchor, rule.alert).toBe(rule.alert.toLowerCase());
      expect(anchors, `runbook.md has no section ${rule.alert}`).toContain(anchor);
    }
  });

  it('each is unit-tested firing in dashboards/alerts.test.yaml', () => {
    expect(tests.rule_files).toEqual(['alerts.yaml']);
    const firing = new Set(tests.tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
    expect([...firing].sort()).toEqual(rules.map((r) => r.alert).sort());
  });
});
