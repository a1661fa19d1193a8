import type { LoadedRules, RuleSources } from '../policy/index.js';

/**
 * What trusting the workspace would put in force: its rules file's allow rules, counted (the
 * summary, `2 allow rules in /w/.kimi-ts/permissions.toml`) and each as written (its pattern, and
 * its reason after ` — ` when it has one), in the file's order. The trust question shows both
 * (util/held-back-lines.ts).
 */
export function heldBack(
  loaded: Pick<LoadedRules, 'project'>,
  sources: Pick<RuleSources, 'projectFile'>,
): [summary: string[], allowRules: string[]] {
  const allows = loaded.project.filter((rule) => rule.decision === 'allow');
  if (allows.length === 0) return [[], []];
  const count = allows.length;
  return [
    [`${count} allow rule${count === 1 ? '' : 's'} in ${sources.projectFile}`],
    allows.map(({ spec }) => (spec.reason ? `${spec.pattern} \u2014 ${spec.reason}` : spec.pattern)),
  ];
}
