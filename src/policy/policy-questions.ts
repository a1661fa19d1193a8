import type { DisplayBlock } from '../kosong/index.js';
import { revealInvisible } from '../util/reveal-invisible.js';
import {
  EDIT_OUTSIDE_ACTION,
  fetchHostAction,
  READ_OUTSIDE_ACTION,
  SEARCH_WEB_ACTION,
} from './approval-actions.js';
import { factBlock, factLine, showTarget } from './describe-facts.js';
import type { EffectFacts } from './effect-facts.js';
import type { PolicyRequest, ToolQuestion } from './policy-decision.js';

/* The words of the policy's questions and refusals: what a person (or the model) is told. */

/**
 * The question for a call, or null when nothing about it needs asking (reads inside the
 * workspace, a tool that says none is needed).
 */
export function questionFor(request: PolicyRequest, facts: readonly EffectFacts[]): ToolQuestion | null {
  const outsideWrite = facts.find((f) => f.effect.kind === 'write' && f.pathClass === 'outside');
  if (request.question === 'none-needed') return null;
  const tool = request.question;
  const saysOutside = tool?.action === EDIT_OUTSIDE_ACTION;
  if (outsideWrite?.effect.kind === 'write' && (!saysOutside || outsideWrite.effect.target.viaSymlink)) {
    return {
      action: EDIT_OUTSIDE_ACTION,
      description: `Edit file outside the working directory: ${showTarget(outsideWrite.effect.target)}`,
      display: tool?.display,
    };
  }
  if (tool) return tool;
  const network = facts.find((f) => f.effect.kind === 'network');
  if (network?.effect.kind === 'network') {
    return network.effect.purpose === 'search'
      ? { action: SEARCH_WEB_ACTION, description: `Search the web: ${network.effect.url}` }
      : { action: fetchHostAction(network.effect.host), description: `Fetch ${network.effect.url}` };
  }
  const outsideRead = facts.find((f) => f.effect.kind === 'read' && f.pathClass === 'outside');
  if (outsideRead?.effect.kind === 'read') {
    return {
      action: READ_OUTSIDE_ACTION,
      description: `Read outside the working directory: ${showTarget(outsideRead.effect.target)}`,
    };
  }
  const sideEffect = facts.find((f) => f.effect.kind !== 'read');
  if (sideEffect) return { action: `${request.toolName}`, description: `Call \`${request.toolName}\`` };
  return null;
}

export interface QuestionText {
  readonly description: string;
  readonly display: readonly DisplayBlock[];
}

/** What the person reads: the question, a line per fact the tool's words do not say, and the facts' blocks. */
export function questionText(
  base: ToolQuestion,
  facts: readonly EffectFacts[],
  note: string | undefined,
): QuestionText {
  const lines = facts.map(factLine).filter((line): line is string => line !== null);
  if (note) lines.push(note);
  // What the person reads is everything that runs: blank-looking runs cannot push a tail out of sight.
  const description = revealInvisible(
    lines.length > 0 ? `${base.description}\n${lines.map((l) => `- ${l}`).join('\n')}` : base.description,
  );
  const display: DisplayBlock[] = [
    ...(base.display ?? []),
    ...facts.filter(addsToTheQuestion).map(factBlock),
  ];
  return { description, display };
}

/** Facts worth a display block: what the tool's own words do not already say. */
export function addsToTheQuestion(facts: EffectFacts): boolean {
  if (factLine(facts) !== null) return true;
  const { effect } = facts;
  return (
    (effect.kind === 'read' || effect.kind === 'write') &&
    (facts.pathClass === 'outside' || effect.target.viaSymlink)
  );
}

export function fallbackQuestion(toolName: string, facts: readonly EffectFacts[]): ToolQuestion {
  const read = facts.find((f) => f.effect.kind === 'read');
  if (read?.effect.kind === 'read') {
    const verb = { read: 'Read', search: 'Search', list: 'List' }[read.effect.access];
    return { action: `${verb.toLowerCase()} file`, description: `${verb} \`${read.effect.target.given}\`` };
  }
  return { action: toolName, description: `Call \`${toolName}\`` };
}

export function refusalByRule(toolName: string): string {
  return `This \`${toolName}\` call must be approved by a person (a permission rule asks for it), and no person can approve it here (print mode, afk, or a background agent), so it is refused.`;
}

export function refusal(facts: EffectFacts): string {
  const { effect } = facts;
  const nobody =
    'no person can approve it here (print mode, afk, or a background agent), so it is refused. Do not try to get around it.';
  switch (effect.kind) {
    case 'read':
    case 'write':
      return `\`${effect.target.given}\` is a secret file (${facts.secret}, real path ${effect.target.real}). Touching it needs a person's approval, and ${nobody}`;
    case 'network':
      return `\`${effect.url}\`: the host ${effect.host} resolves to a ${facts.addressClass} address (${effect.addresses.map((a) => a.address).join(', ')}). Fetching from private networks needs a person's approval, and ${nobody}`;
    case 'exec':
      if (facts.secret)
        return `This command reads a secret file: ${facts.secret}. Reading secrets needs a person's approval, and ${nobody}`;
      return `This call needs a person's approval, and ${nobody}`;
    case 'external':
      return `This call needs a person's approval, and ${nobody}`;
  }
}
