import { wireEvent } from '../wire/events.js';
import type { ModelChoice, ModelSwitcher } from './model-switcher.js';
import type { SlashCommandOf } from './slash-command-types.js';
import type { Soul } from './soul.js';

export const MODEL_USAGE = 'Usage: /model · /model ALIAS [--thinking | --no-thinking]';

/** `262,144 tokens` → `256k`; small windows stay exact. */
export function contextSizeLabel(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 1_000_000 === 0) return `${tokens / 1_000_000}M`;
  if (tokens >= 1024 && tokens % 1024 === 0) return `${tokens / 1024}k`;
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}k`;
  return String(tokens);
}

/** One model of the list: alias, the API's model name, the provider, context and thinking; no keys, no URLs. */
export function describeModelChoice(choice: ModelChoice, thinkingNow: boolean): string {
  const thinking =
    choice.thinking === 'always'
      ? ', always thinks'
      : choice.thinking === 'optional'
        ? `, thinking ${choice.current ? (thinkingNow ? 'on' : 'off') : 'on/off'}`
        : '';
  return `${choice.current ? '*' : ' '} ${choice.alias}: ${choice.model} (provider ${choice.provider}, context ${contextSizeLabel(choice.maxContextSize)}${thinking})`;
}

/** `/model [ALIAS] [--thinking|--no-thinking]` parsed; null when the words make no sense. */
export function parseModelArgs(args: string): { alias: string | null; thinking: boolean | undefined } | null {
  let alias: string | null = null;
  let thinking: boolean | undefined;
  for (const word of args.trim().split(/\s+/).filter(Boolean)) {
    if (word === '--thinking' || word === '--no-thinking') {
      if (thinking !== undefined) return null;
      thinking = word === '--thinking';
    } else if (alias === null && !word.startsWith('-')) alias = word;
    else return null;
  }
  if (alias === null && thinking !== undefined) return null;
  return { alias, thinking };
}

/**
 * `/model`: lists the config's models, or switches this session to one (in process, the same
 * session), and like Kimi CLI's `/model` keeps the choice as the config's `default_model` and
 * `default_thinking`.
 */
export function modelCommand(models: ModelSwitcher): SlashCommandOf<Soul> {
  return {
    name: 'model',
    description:
      'List the models of the config, or switch to one (saved as the default): /model ALIAS [--thinking | --no-thinking]',
    aliases: [],
    async run({ soul, args }) {
      const parsed = parseModelArgs(args);
      if (parsed === null) return say(soul, MODEL_USAGE);
      const { alias, thinking } = parsed;
      if (alias === null) {
        const choices = models.list();
        say(
          soul,
          choices.length === 0
            ? 'The config defines no models ([models.ALIAS] tables).'
            : [
                ...choices.map((m) => describeModelChoice(m, models.thinking)),
                'Switch with /model ALIAS (--thinking or --no-thinking where thinking is optional).',
              ].join('\n'),
        );
        return;
      }
      try {
        const switched = await models.select(alias, { thinking, saveAsDefault: true });
        say(soul, switchedText(switched.alias, switched.thinking, switched.notSaved));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const unknown = (error as { reason?: unknown }).reason === 'unknown_alias';
        say(soul, unknown ? message : `Cannot switch to ${alias.slice(0, 60)}: ${message}`);
      }
    },
  };
}

/** What a switch says: the model, thinking, and whether it became the default. */
export function switchedText(alias: string, thinking: boolean, notSaved: string | null): string {
  return (
    `Using the model ${alias} (thinking ${thinking ? 'on' : 'off'}) for this session from now on` +
    (notSaved === null ? '; saved as the default.' : `; not saved as the default: ${notSaved}.`)
  );
}

function say(soul: Soul, text: string): void {
  soul.send(wireEvent('ContentPart', { type: 'text', text }));
}
