import { z } from 'zod';
import { toolError, toolOk } from '../../kosong/index.js';
import type { SessionPolicy } from '../../policy/index.js';
import type { Approval } from '../approval/approval.js';
import { defineTool, type KimiTool } from '../tool-definition.js';
import { ToolResultBuilder } from '../tool-result-builder.js';
import { fillPlaceholders, loadToolDescription } from './tool-description.js';

/**
 * What the loader can inject into a tool, by name. Layers above the toolset add their own entries
 * (runtime, config, session, environment, denwaRenji, laborMarket, ...) by declaration merging:
 *
 *     declare module './dependencies.js' {
 *       interface ToolDependencyMap { runtime: Runtime }
 *     }
 *
 * so the toolset never imports them, yet `toolFactory(['runtime'], ({ runtime }) => ...)` is typed.
 * (`toolset`, the toolset the tool is loaded into, is declared the same way by kimi-toolset.ts.)
 */
export interface ToolDependencyMap {
  approval: Approval;
  /** The session's policy: tools ask it what is secret (Grep and Glob leave such files out). */
  policy: SessionPolicy;
  /** Values for `${VAR}` placeholders in tool descriptions. */
  descriptionVars: Readonly<Record<string, string | undefined>>;
  /** The session's working directory. */
  workDir: string;
}

export type ToolDependencyName = keyof ToolDependencyMap & string;

/** The objects offered to tools at load time. Missing entries are simply unavailable. */
export type ToolDependencyTable = { [K in ToolDependencyName]?: ToolDependencyMap[K] };

/** Thrown by a tool factory that should not be loaded here (a capability or service is missing). */
export class SkipThisTool extends Error {
  override name = 'SkipThisTool';
}

/**
 * The toolkit handed to every factory, so tools written by users as plain `.mjs` files can define
 * tools the same way built-in ones do without resolving any package themselves.
 */
export const toolKit = {
  defineTool,
  z,
  SkipThisTool,
  ToolResultBuilder,
  toolOk,
  toolError,
  loadToolDescription,
  fillPlaceholders,
} as const;

export type ToolKit = typeof toolKit;

/**
 * How a tool module exports a tool that needs something: the names of its dependencies, checked
 * against the table when loading, and a function building the tool from them. A module may instead
 * export a finished tool when it needs nothing.
 */
export interface ToolFactory<K extends ToolDependencyName = ToolDependencyName> {
  readonly dependencies: readonly K[];
  create(deps: Pick<ToolDependencyMap, K>, kit: ToolKit): KimiTool | Promise<KimiTool>;
}

export function toolFactory<const K extends ToolDependencyName>(
  dependencies: readonly K[],
  create: (deps: Pick<ToolDependencyMap, K>, kit: ToolKit) => KimiTool | Promise<KimiTool>,
): ToolFactory<K> {
  return { dependencies, create };
}
