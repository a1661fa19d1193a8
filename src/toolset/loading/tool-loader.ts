import { runWithAmbientContext } from '../ambient-tool-context.js';
import type { KimiTool } from '../tool-definition.js';
import { SkipThisTool, type ToolDependencyTable, type ToolFactory, toolKit } from './dependencies.js';
import { BUILTIN_PREFIX, importToolModule, type ModuleResolutionOptions } from './module-resolution.js';
import { hasFactoryShape, hasToolShape, whyNotTool } from './tool-shapes.js';

export interface ToolLoadFailure {
  spec: string;
  reason: string;
}

/** Some tool specs could not be loaded; `failures` lists every one of them with its reason. */
export class InvalidToolError extends Error {
  override name = 'InvalidToolError';
  constructor(readonly failures: readonly ToolLoadFailure[]) {
    super(
      `Could not load ${failures.length} tool(s):\n${failures.map((f) => `- ${f.spec}: ${f.reason}`).join('\n')}`,
    );
  }
}

/** A tool asked for a dependency the loader does not offer. */
export class ToolDependencyError extends Error {
  override name = 'ToolDependencyError';
  constructor(
    readonly spec: string,
    readonly dependency: string,
    available: readonly string[],
  ) {
    super(
      `Tool ${spec} depends on "${dependency}", which is not available here (available: ${available.join(', ') || 'none'})`,
    );
  }
}

export interface LoadedTools {
  tools: KimiTool[];
  /** Specs whose factory declined with SkipThisTool, with its message. */
  skipped: ToolLoadFailure[];
}

type Loaded = { spec: string; factory: ToolFactory } | { spec: string; tool: KimiTool };

/**
 * Loads tools from `"module:Export"` specs (module resolution: see `resolveToolModule`). Each export
 * is a finished tool or a factory naming its dependencies. All imports are tried before anything
 * fails, so one `InvalidToolError` lists every bad spec; a dependency missing from `deps` is a
 * `ToolDependencyError`; a factory throwing `SkipThisTool` is left out quietly.
 */
export async function loadTools(
  specs: readonly string[],
  deps: ToolDependencyTable,
  options: ModuleResolutionOptions,
): Promise<LoadedTools> {
  const failures: ToolLoadFailure[] = [];
  const imported = await Promise.all(specs.map((spec) => importExport(spec, options)));
  const loaded: Loaded[] = [];
  for (const outcome of imported) {
    if ('reason' in outcome) failures.push(outcome);
    else loaded.push(outcome);
  }
  if (failures.length > 0) throw new InvalidToolError(failures);

  const available = Object.entries(deps)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  for (const item of loaded) {
    if (!('factory' in item)) continue;
    const missing = item.factory.dependencies.find((name) => !available.includes(name));
    if (missing !== undefined) throw new ToolDependencyError(item.spec, missing, available);
  }

  // Factories run concurrently (each typically reads its description file); results keep spec order.
  const created = await Promise.all(
    loaded.map(async (item): Promise<{ tool: unknown } | { error: unknown }> => {
      try {
        if ('tool' in item) return { tool: item.tool };
        return { tool: await item.factory.create(pick(deps, item.factory.dependencies), toolKit) };
      } catch (error) {
        return { error };
      }
    }),
  );
  const tools: KimiTool[] = [];
  const skipped: ToolLoadFailure[] = [];
  const names = new Set<string>();
  for (const [index, item] of loaded.entries()) {
    const outcome = created[index]!;
    if ('error' in outcome) {
      const { error } = outcome;
      if (error instanceof SkipThisTool) skipped.push({ spec: item.spec, reason: error.message });
      else failures.push({ spec: item.spec, reason: `creating the tool failed: ${errorText(error)}` });
      continue;
    }
    const { tool } = outcome;
    if (!hasToolShape(tool)) {
      failures.push({ spec: item.spec, reason: `the factory did not return a tool (${whyNotTool(tool)})` });
      continue;
    }
    const { name } = tool as KimiTool;
    if (names.has(name)) {
      failures.push({ spec: item.spec, reason: `another tool is already named "${name}"` });
    } else {
      names.add(name);
      tools.push(tool as KimiTool);
      // Written outside kimi-ts: its calls keep the ambient tool-call context (ambient-tool-context.ts).
      if (!item.spec.startsWith(BUILTIN_PREFIX)) runWithAmbientContext(tool as KimiTool);
    }
  }
  if (failures.length > 0) throw new InvalidToolError(failures);
  return { tools, skipped };
}

async function importExport(
  spec: string,
  options: ModuleResolutionOptions,
): Promise<Loaded | ToolLoadFailure> {
  const colon = spec.lastIndexOf(':');
  const modulePart = colon > 0 ? spec.slice(0, colon) : '';
  const exportName = colon > 0 ? spec.slice(colon + 1) : '';
  // A bare Windows drive ("C:\...") or a URL scheme is not a module:Export split.
  if (!modulePart || !exportName || /[\\/]/.test(exportName)) {
    return { spec, reason: 'expected "module:Export"' };
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = await importToolModule(modulePart, options);
  } catch (error) {
    return { spec, reason: `import failed: ${errorText(error)}` };
  }
  const value = namespace[exportName];
  if (value === undefined) return { spec, reason: `the module has no export named "${exportName}"` };
  if (hasFactoryShape(value)) return { spec, factory: value as ToolFactory };
  if (hasToolShape(value)) return { spec, tool: value as KimiTool };
  return {
    spec,
    reason: `export "${exportName}" is neither a tool nor a tool factory ({ dependencies, create })`,
  };
}

function pick(deps: ToolDependencyTable, names: readonly string[]): never {
  const picked: Record<string, unknown> = {};
  for (const name of names) picked[name] = (deps as Record<string, unknown>)[name];
  // The dependency check above guarantees every declared name is present.
  return picked as never;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
