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
    case 'exec': {
      const parts = facts.command?.parts ?? [];
      if (parts.length <= 1 && !facts.command?.incomplete) return null;
      const note = facts.command?.incomplete ? ' (the parser found a syntax error)' : '';
      return `runs ${parts.length} parts: ${parts.map((part) => `\`${part}\``).join(', ')}${note}`;
    }
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
