import { relative } from 'node:path';
import { commandSecretReasonNow } from './command-secret-paths.js';
import type { Effect } from './effects.js';
import { fileSecretReason } from './file-secret-reason.js';
import { type AddressClass, classifyAddresses } from './network-address.js';
import type { PathClass, WorkspaceRoots } from './path-class.js';
import type { SensitiveHomes } from './sensitive-files.js';
import { type ParsedCommand, parseShellCommand, parseShellCommandNow } from './shell-command.js';

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

/**
 * The effects' facts, in a promise only when one of them waits on something (a file's class or
 * content, the parser's first load): most commands' facts are ready, and the decision awaits nothing
 * (an await of a ready value still waits a microtask).
 */
export function gatherAllFacts(
  effects: readonly Effect[],
  roots: WorkspaceRoots,
  homes: SensitiveHomes,
  sandboxHidesHomes: boolean,
): EffectFacts[] | Promise<EffectFacts[]> {
  const gathered: (EffectFacts | Promise<EffectFacts>)[] = [];
  let waits = false;
  for (let i = 0; i < effects.length; i++) {
    const facts = gatherFacts(effects[i]!, roots, homes, sandboxHidesHomes);
    waits ||= facts instanceof Promise;
    gathered.push(facts);
  }
  return waits ? Promise.all(gathered) : (gathered as EffectFacts[]);
}

/**
 * What the policy works out about an effect. A command's facts come with no promise once the parser
 * is loaded and no file's content is read (most commands): the decision waits on no microtask for them.
 */
export function gatherFacts(
  effect: Effect,
  roots: WorkspaceRoots,
  homes: SensitiveHomes,
  /** Commands run in the sandbox, which hides the homes' secret folders and the config files. */
  sandboxHidesHomes = false,
): EffectFacts | Promise<EffectFacts> {
  switch (effect.kind) {
    case 'read':
    case 'write':
      return fileFacts(effect, roots, homes);
    case 'exec': {
      const hidden = sandboxHidesHomes && effect.leaveSandbox === undefined;
      const command = parseShellCommandNow(effect.command);
      if (command) return commandFacts(effect, command, homes, hidden);
      return parseShellCommand(effect.command).then((parsed) => commandFacts(effect, parsed, homes, hidden));
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

async function fileFacts(
  effect: Extract<Effect, { kind: 'read' | 'write' }>,
  roots: WorkspaceRoots,
  homes: SensitiveHomes,
): Promise<EffectFacts> {
  const { target } = effect;
  const pathClass = await roots.classify(target.real);
  const candidates = [target.given, target.absolute, target.real];
  if (pathClass === 'workspace') candidates.push(relative(await roots.realWorkDir(), target.real) || '.');
  // By name and place first; then, for reading a file's text, by other names and what it holds.
  const byContent = effect.kind === 'read' && effect.access !== 'list';
  const named = target.viaSymlink ? target.absolute : undefined;
  const secret = (await fileSecretReason(target.real, homes, named, byContent)) ?? undefined;
  return { effect, candidates, pathClass, secret };
}

function commandFacts(
  effect: Extract<Effect, { kind: 'exec' }>,
  command: ParsedCommand,
  homes: SensitiveHomes,
  sandboxHidesHomes: boolean,
): EffectFacts | Promise<EffectFacts> {
  const secret = commandSecretReasonNow(
    command.parts,
    effect.cwd,
    homes,
    undefined,
    command.loopWords,
    sandboxHidesHomes,
    command.analysed,
  );
  const facts = (reason: string | null): EffectFacts => ({
    effect,
    candidates: [effect.command.trim()],
    command,
    secret: reason ?? undefined,
  });
  return secret instanceof Promise ? secret.then(facts) : facts(secret);
}
