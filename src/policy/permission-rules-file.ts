import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';
import { PermissionRule, type PermissionRuleSpec, RULE_DECISIONS, RULE_SCOPES } from './permission-rule.js';
import { RuleSet } from './rule-set.js';

function buildRulesSchemas() {
  const permissionRuleSchema = z.strictObject({
    decision: z.enum(RULE_DECISIONS),
    pattern: z.string().min(1),
    scope: z.enum(RULE_SCOPES).optional(),
    reason: z.string().optional(),
  });
  /** `[permission]` of the config and of `.kimi-ts/permissions.toml`: Kimi Code's schema. */
  const permissionSectionSchema = z.strictObject({
    rules: z.array(permissionRuleSchema).default([]),
  });
  const rulesFileSchema = z.looseObject({ permission: permissionSectionSchema.prefault({}) });
  return { permissionSectionSchema, rulesFileSchema };
}

// Built on first use: a start with no rules file and no `[permission]` in its config needs none.
let rulesSchemas: ReturnType<typeof buildRulesSchemas> | undefined;
const builtRulesSchemas = () => (rulesSchemas ??= buildRulesSchemas());

/** `[permission]` of the config and of `.kimi-ts/permissions.toml`: Kimi Code's schema. */
export function permissionSectionSchema(): ReturnType<typeof buildRulesSchemas>['permissionSectionSchema'] {
  return builtRulesSchemas().permissionSectionSchema;
}

/** A rules file that cannot be used; the message names the file and the rule. */
export class PermissionRulesError extends Error {
  override name = 'PermissionRulesError';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`Invalid permission rules in ${file}: ${detail}`);
  }
}

/** Compiles rules as written (validated shape) into matchers; a bad pattern names its file and index. */
export function compileRules(specs: readonly PermissionRuleSpec[], file: string): PermissionRule[] {
  return specs.map((spec, i) => new PermissionRule(spec, { file, index: i + 1 }));
}

/** Reads `[[permission.rules]]` from a TOML file; a missing file has no rules. */
export async function readRulesFile(file: string): Promise<PermissionRule[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (error) {
    throw new PermissionRulesError(file, `not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = builtRulesSchemas().rulesFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.map(String).join('.') : '';
    throw new PermissionRulesError(file, `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`);
  }
  return compileRules(parsed.data.permission.rules, file);
}

export interface RuleSources {
  /** `.kimi-ts/permissions.toml` of the project (first: the project knows its own dangers best). */
  projectFile: string;
  /** `<KIMI_TS_HOME>/permissions.toml`, where answers saved for the user go. */
  userFile: string;
  /** `[[permission.rules]]` of the config, already shape-checked by the config loader. */
  configRules: readonly PermissionRuleSpec[];
  configFile: string;
}

/** Where a rule was read from, as `/permissions` names it. */
export type RuleSourceKind = 'project' | 'user' | 'config';

/** Every rule of every source, whether in force or not. */
export interface LoadedRules {
  readonly project: readonly PermissionRule[];
  readonly user: readonly PermissionRule[];
  readonly config: readonly PermissionRule[];
}

/** Reads the rules of every source (an invalid rule anywhere stops with its file and index). */
export async function readPermissionRules(sources: RuleSources): Promise<LoadedRules> {
  const [project, user] = await Promise.all([
    readRulesFile(sources.projectFile),
    readRulesFile(sources.userFile),
  ]);
  return { project, user, config: compileRules(sources.configRules, sources.configFile) };
}

/**
 * Whether a rule holds. A project's rules file is the workspace's word: its deny and ask rules only
 * make things safer and always hold; its allow rules hold only once the person trusts the folder.
 */
export function isRuleInForce(
  source: RuleSourceKind,
  rule: PermissionRule,
  projectTrusted: boolean,
): boolean {
  return source !== 'project' || projectTrusted || rule.decision !== 'allow';
}

/** The rules in force, in order: project file, user file, config. */
export function rulesInForce(loaded: LoadedRules, projectTrusted: boolean): RuleSet {
  const project = loaded.project.filter((rule) => isRuleInForce('project', rule, projectTrusted));
  return new RuleSet([...project, ...loaded.user, ...loaded.config]);
}

/** Every rule in force, in order: project file, user file, config. */
export async function loadPermissionRules(sources: RuleSources, projectTrusted: boolean): Promise<RuleSet> {
  return rulesInForce(await readPermissionRules(sources), projectTrusted);
}

/** Appends a rule to a rules file (creating it), keeping the rules already there. */
export async function appendRule(file: string, spec: PermissionRuleSpec): Promise<void> {
  let data: Record<string, unknown> = {};
  try {
    data = parseToml(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const section = (data.permission ?? {}) as { rules?: unknown[] };
  const entry: Record<string, string> = { decision: spec.decision, pattern: spec.pattern };
  if (spec.scope) entry.scope = spec.scope;
  if (spec.reason) entry.reason = spec.reason;
  data.permission = { ...section, rules: [...(section.rules ?? []), entry] };
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${stringifyToml(data)}\n`);
}
