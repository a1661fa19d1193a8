import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isKimiCliToolPath, kimiTsToolFor } from './kimi-cli-tool-paths.js';

/** The built-in agent spec (`src/agents/default/agent.yaml`, copied beside the build). */
export const DEFAULT_AGENT_FILE = fileURLToPath(new URL('../agents/default/agent.yaml', import.meta.url));

/** The spec file's schema, built for a spec that is not plainly valid (plainSpecFile), to word its errors. */
export function buildSpecFileSchema() {
  const subagentSchema = z.object({ path: z.string().min(1), description: z.string().default('') });
  const agentSchema = z.object({
    extend: z.string().optional(),
    name: z.string().optional(),
    system_prompt_path: z.string().optional(),
    system_prompt_args: z.record(z.string(), z.string()).optional(),
    when_to_use: z.string().optional(),
    model: z.string().optional(),
    tools: z.array(z.string()).optional(),
    allowed_tools: z.array(z.string()).optional(),
    exclude_tools: z.array(z.string()).optional(),
    subagents: z.record(z.string(), subagentSchema).optional(),
  });
  return z.object({ version: z.literal(1).default(1), agent: agentSchema });
}

type SpecFile = z.output<ReturnType<typeof buildSpecFileSchema>>;

let specFileSchema: ReturnType<typeof buildSpecFileSchema> | undefined;

/** The spec as its schema makes it, or an error in zod's words. */
function parsedBySchema(raw: unknown, path: string): SpecFile {
  specFileSchema ??= buildSpecFileSchema();
  const parsed = specFileSchema.safeParse(raw, { jitless: true });
  if (!parsed.success)
    throw new AgentSpecError(`Invalid agent spec ${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const SPEC_TEXT_KEYS = ['extend', 'name', 'system_prompt_path', 'when_to_use', 'model'] as const;
const SPEC_LIST_KEYS = ['tools', 'allowed_tools', 'exclude_tools'] as const;

/**
 * A spec file that is plainly valid, as its schema makes it (`version` 1, a subagent's description
 * '' when absent, unknown keys dropped), without building the schema: every start reads the built-in
 * spec on the path to its first model request (zod built 36 objects for it). `undefined` for
 * anything else, which the schema then words; agent-spec.test.ts holds the two to each other.
 */
export function plainSpecFile(raw: unknown): SpecFile | undefined {
  if (!isPlainObject(raw) || (raw.version !== undefined && raw.version !== 1)) return undefined;
  const agent = raw.agent;
  if (!isPlainObject(agent)) return undefined;
  const out: SpecFile['agent'] = {};
  for (const key of SPEC_TEXT_KEYS) {
    const value = agent[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    out[key] = value;
  }
  const args = agent.system_prompt_args;
  if (args !== undefined) {
    if (!isPlainObject(args) || !Object.values(args).every((value) => typeof value === 'string'))
      return undefined;
    out.system_prompt_args = { ...(args as Record<string, string>) };
  }
  for (const key of SPEC_LIST_KEYS) {
    const value = agent[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
    out[key] = [...value];
  }
  if (agent.subagents !== undefined) {
    if (!isPlainObject(agent.subagents)) return undefined;
    const subagents: NonNullable<SpecFile['agent']['subagents']> = {};
    for (const [name, sub] of Object.entries(agent.subagents)) {
      if (!isPlainObject(sub) || typeof sub.path !== 'string' || sub.path === '') return undefined;
      if (sub.description !== undefined && typeof sub.description !== 'string') return undefined;
      subagents[name] = { path: sub.path, description: sub.description ?? '' };
    }
    out.subagents = subagents;
  }
  return { version: 1, agent: out };
}

/** An object as YAML and JSON make them, with no key that would set its prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}

/** An agent spec with `extend` applied and every path absolute. */
export interface AgentSpec {
  file: string;
  /** Every spec file read for it: this one, then the ones it extends, in order. */
  specFiles: string[];
  name: string;
  systemPromptPath: string;
  systemPromptArgs: Record<string, string>;
  whenToUse: string;
  model: string | null;
  /** `"module:Export"` tool specs, after `allowed_tools` / `exclude_tools`. */
  tools: string[];
  subagents: Record<string, { path: string; description: string }>;
}

export class AgentSpecError extends Error {
  override name = 'AgentSpecError';
}

/** Loads an agent spec YAML (`version: 1`, `agent: {...}`), following `extend` chains. */
export async function loadAgentSpec(file: string, seen: Set<string> = new Set()): Promise<AgentSpec> {
  const path = resolve(file);
  if (seen.has(path))
    throw new AgentSpecError(`Agent spec ${path} extends itself (through ${[...seen].join(' → ')}).`);
  seen.add(path);
  const raw = await readSpecFile(path);
  const agent = (plainSpecFile(raw) ?? parsedBySchema(raw, path)).agent;
  const dir = dirname(path);
  const base = agent.extend
    ? await loadAgentSpec(agent.extend === 'default' ? DEFAULT_AGENT_FILE : resolve(dir, agent.extend), seen)
    : null;

  const subagents = { ...(base?.subagents ?? {}) };
  for (const [name, sub] of Object.entries(agent.subagents ?? {})) {
    subagents[name] = { path: resolve(dir, sub.path), description: sub.description };
  }
  const listed = agent.tools
    ? agent.tools.map((spec) => toolSpecOf(spec, dir, path))
    : [...(base?.tools ?? [])];
  // Entries name tools by bare name (`Shell`), by Kimi CLI's path (`kimi_cli.tools.shell:Shell`) or by
  // module spec. One that names none of the agent's tools is an error: a mistyped or untranslated
  // `exclude_tools` entry would otherwise leave the tool it meant to remove available.
  const matching = (field: string, entries: readonly string[]) => {
    const named = entries.map((entry) => {
      const hits = listed.filter((spec) => entryNames(entry, spec, dir));
      if (hits.length === 0) {
        throw new AgentSpecError(
          `Agent spec ${path}: ${field} entry ${JSON.stringify(entry)} names none of the agent's tools (${listed.map(toolExportName).join(', ') || 'none'}).`,
        );
      }
      return hits;
    });
    return new Set(named.flat());
  };
  let tools = listed;
  if (agent.allowed_tools) {
    const allowed = matching('allowed_tools', agent.allowed_tools);
    tools = tools.filter((spec) => allowed.has(spec));
  }
  if (agent.exclude_tools) {
    const excluded = matching('exclude_tools', agent.exclude_tools);
    tools = tools.filter((spec) => !excluded.has(spec));
  }
  const systemPromptPath = agent.system_prompt_path
    ? resolve(dir, agent.system_prompt_path)
    : base?.systemPromptPath;
  if (!systemPromptPath)
    throw new AgentSpecError(
      `Agent spec ${path} has no system_prompt_path (and extends nothing that has one).`,
    );
  return {
    file: path,
    specFiles: [path, ...(base?.specFiles ?? [])],
    name: agent.name ?? base?.name ?? 'agent',
    systemPromptPath,
    systemPromptArgs: { ...(base?.systemPromptArgs ?? {}), ...(agent.system_prompt_args ?? {}) },
    whenToUse: agent.when_to_use ?? base?.whenToUse ?? '',
    model: agent.model ?? base?.model ?? null,
    tools,
    subagents,
  };
}

/**
 * Reads a spec file. The build writes a JSON twin (`agent.yaml.json`) of each built-in spec, which
 * spares startup the YAML parser; user specs are parsed as YAML (JSON is valid YAML too).
 */
async function readSpecFile(path: string): Promise<unknown> {
  const twin = `${path}.json`;
  let text: string;
  try {
    if (existsSync(twin)) return JSON.parse(await readFile(twin, 'utf8')) as unknown;
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AgentSpecError(`Cannot read agent spec ${path}: ${(error as Error).message}`);
  }
  try {
    const { parse } = await import('yaml');
    return parse(text) as unknown;
  } catch (error) {
    throw new AgentSpecError(`Agent spec ${path} is not valid YAML: ${(error as Error).message}`);
  }
}

/** The export (tool) name of a `"module:Export"` spec. */
export function toolExportName(spec: string): string {
  return spec.slice(spec.lastIndexOf(':') + 1);
}

/** A `tools` entry as kimi-ts loads it: Kimi CLI's paths become the kimi-ts tool they name. */
function toolSpecOf(spec: string, dir: string, file: string): string {
  const translated = kimiTsToolFor(spec);
  if (translated !== null) return translated;
  if (isKimiCliToolPath(spec))
    throw new AgentSpecError(
      `Agent spec ${file}: kimi-ts has no tool ${JSON.stringify(spec)} (a Kimi CLI tool).`,
    );
  return absolutizeToolSpec(spec, dir);
}

/** Whether an `allowed_tools` / `exclude_tools` entry names the tool `spec`. */
function entryNames(entry: string, spec: string, dir: string): boolean {
  if (!entry.includes(':')) return toolExportName(spec) === entry;
  return (kimiTsToolFor(entry) ?? absolutizeToolSpec(entry, dir)) === spec;
}

/** Relative module paths are relative to the spec that lists them; make them absolute so they survive `extend`. */
function absolutizeToolSpec(spec: string, dir: string): string {
  const colon = spec.lastIndexOf(':');
  const module = spec.slice(0, colon);
  if (module.startsWith('./') || module.startsWith('../'))
    return `${resolve(dir, module)}:${spec.slice(colon + 1)}`;
  return spec;
}
