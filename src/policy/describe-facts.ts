import type { DisplayBlock } from '../kosong/index.js';
import type { EffectFacts } from './effect-facts.js';
import type { FileTarget } from './effects.js';

/** `/real/path (via given)` when a symlink or a relative name hides where the file really is. */
export function showTarget(target: FileTarget): string {
  return target.real === target.given ? target.real : `${target.real} (via ${target.given})`;
}

const ACCESS_WORDS = { read: 'read', search: 'search', list: 'list' } as const;

/** One line of real facts for the approval text; null when the tool's own words already say it all. */
export function factLine(facts: EffectFacts): string | null {
  const { effect } = facts;
  switch (effect.kind) {
    case 'read':
      if (facts.secret)
        return `${ACCESS_WORDS[effect.access]} SECRET file ${showTarget(effect.target)}: ${facts.secret}`;
      if (facts.pathClass === 'outside')
        return `${ACCESS_WORDS[effect.access]} outside the working directory: ${showTarget(effect.target)}`;
      return null;
    case 'write':
      if (facts.secret) return `edit SECRET file ${showTarget(effect.target)}: ${facts.secret}`;
      // Outside the workspace the question itself names the real path (see SessionPolicy).
      if (facts.pathClass === 'outside') return null;
      if (effect.target.viaSymlink) return `real path: ${showTarget(effect.target)}`;
      return null;
    case 'exec':
      return commandLines(facts);
    case 'network': {
      const addresses = effect.addresses.map((a) => a.address).join(', ');
      if (!facts.addressClass) return `host ${effect.host}`;
      const where =
        facts.addressClass === 'public'
          ? 'a public address'
          : `a ${facts.addressClass} address (not the internet)`;
      return `host ${effect.host} resolves to ${addresses}: ${where}`;
    }
    case 'external':
      return null;
  }
}

/**
 * A command's parts when there is more than one, and each part that is not simple with why: allow
 * rules and command-prefix approvals do not cover it (`PATH=/tmp/x git status` sets PATH).
 */
function commandLines(facts: EffectFacts): string | null {
  const command = facts.command;
  if (!command) return null;
  const lines: string[] = [];
  if (facts.secret) lines.push(`reads a SECRET file: ${facts.secret}`);
  if (command.parts.length > 1 || command.incomplete) {
    const note = command.incomplete ? ' (the parser found a syntax error)' : '';
    lines.push(
      `runs ${command.parts.length} parts: ${command.parts.map((part) => `\`${part}\``).join(', ')}${note}`,
    );
  }
  for (const part of command.analysed) {
    if (part.notSimple !== null)
      lines.push(`not covered by allow rules: \`${part.text}\` — ${part.notSimple}`);
  }
  return lines.length > 0 ? lines.join('\n- ') : null;
}

/**
 * The same facts as a display block (`policy_effect`) for front ends and wire clients that show
 * them their own way: real path and class, whether secret, the parsed command, host and addresses.
 */
export function factBlock(facts: EffectFacts): DisplayBlock {
  const { effect } = facts;
  switch (effect.kind) {
    case 'read':
    case 'write':
      return {
        type: 'policy_effect',
        effect: effect.kind,
        path: effect.target.given,
        real_path: effect.target.real,
        via_symlink: effect.target.viaSymlink,
        path_class: facts.pathClass ?? null,
        secret: facts.secret ?? null,
      };
    case 'exec':
      return {
        type: 'policy_effect',
        effect: 'exec',
        command: effect.command,
        parts: [...(facts.command?.parts ?? [])],
        parsed_whole: !facts.command?.incomplete,
        // Why the command reads a secret file (a word names one), as for a file's read.
        secret: facts.secret ?? null,
        // The parts allow rules and command prefixes do not cover, and why.
        not_simple: (facts.command?.analysed ?? [])
          .filter((part) => part.notSimple !== null)
          .map((part) => ({ part: part.text, why: part.notSimple })),
      };
    case 'network':
      return {
        type: 'policy_effect',
        effect: 'network',
        url: effect.url,
        host: effect.host,
        addresses: effect.addresses.map((a) => a.address),
        address_class: facts.addressClass ?? null,
      };
    case 'external':
      return { type: 'policy_effect', effect: 'external', action: effect.action };
  }
}
