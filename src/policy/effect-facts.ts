import { relative } from 'node:path';
import { commandSecretReason } from './command-secret-paths.js';
import type { Effect } from './effects.js';
import { type AddressClass, classifyAddresses } from './network-address.js';
import type { PathClass, WorkspaceRoots } from './path-class.js';
import { fileSecretContentReason } from './secret-content.js';
import { type SensitiveHomes, sensitiveReason } from './sensitive-files.js';
import { type ParsedCommand, parseShellCommand } from './shell-command.js';

/** An effect with what the policy worked out about it. */
export interface EffectFacts {
  readonly effect: Effect;
  /** What rule globs are matched against. */
  readonly candidates: string[];
  readonly pathClass?: PathClass | undefined;
  /** Why the file holds secrets, for a read or write of one (or a command naming one). */
  readonly secret?: string | undefined;
  /** For a network effect: the least public of the addresses the host resolved to. */
  readonly addressClass?: AddressClass | undefined;
  readonly command?: ParsedCommand | undefined;
}

export async function gatherFacts(
  effect: Effect,
  roots: WorkspaceRoots,
  homes: SensitiveHomes,
  /** Commands run in the sandbox, which hides the homes' secret folders and the config files. */
  sandboxHidesHomes = false,
): Promise<EffectFacts> {
  switch (effect.kind) {
    case 'read':
    case 'write': {
      const { target } = effect;
      const pathClass = await roots.classify(target.real);
      const candidates = [target.given, target.absolute, target.real];
      if (pathClass === 'workspace') candidates.push(relative(await roots.realWorkDir(), target.real) || '.');
      // By name and place first; then, for reading a file's text, by what it holds.
      const byContent = effect.kind === 'read' && effect.access !== 'list';
      const secret =
        sensitiveReason(target.real, homes) ??
        (byContent ? await fileSecretContentReason(target.real) : null) ??
        undefined;
      return { effect, candidates, pathClass, secret };
    }
    case 'exec': {
      const command = await parseShellCommand(effect.command);
      const hidden = sandboxHidesHomes && effect.leaveSandbox === undefined;
      const secret =
        (await commandSecretReason(command.parts, effect.cwd, homes, undefined, command.loopWords, hidden)) ??
        undefined;
      return { effect, candidates: [effect.command.trim()], command, secret };
    }
    case 'network':
      return {
        effect,
        candidates: [effect.url, effect.host, `domain:${effect.host}`],
        addressClass: effect.addresses.length > 0 ? classifyAddresses(effect.addresses) : undefined,
      };
    case 'external':
      return { effect, candidates: [effect.action] };
  }
}
