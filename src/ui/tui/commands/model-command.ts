import type { ModelChoice } from '../../../app/agent-session.js';
import { ModelSwitchError } from '../../../app/model-switch-error.js';
import { contextSizeLabel, MODEL_USAGE, parseModelArgs, switchedText } from '../../../soul/model-command.js';
import { terminalText as t, trustedLiteral } from '../../../util/sanitize-terminal.js';
import { ChoicePicker, type SafeSelectItem } from '../choice-picker.js';
import { sanitizeForTerminal } from '../sanitize-for-terminal.js';
import type { TuiCommand, TuiCommandContext } from './tui-command.js';

/** One row of the picker: the alias, then the API's model name, provider, context and thinking. */
function modelItem(choice: ModelChoice, thinkingNow: boolean): SafeSelectItem {
  const thinking =
    choice.thinking === 'always'
      ? ' · always thinks'
      : choice.thinking === 'optional'
        ? ` · thinking ${choice.current ? (thinkingNow ? 'on' : 'off') : 'on/off'}`
        : '';
  const name = choice.displayName ? `${choice.displayName} = ${choice.model}` : choice.model;
  return {
    value: choice.alias,
    label: t`${choice.current ? trustedLiteral('* ') : trustedLiteral('  ')}${sanitizeForTerminal(choice.alias)}`,
    description: sanitizeForTerminal(
      `${name} (${choice.provider}) · ${contextSizeLabel(choice.maxContextSize)} context${thinking}`,
    ),
  };
}

/**
 * `/model`: a picker of the config's models (the one in use marked), then thinking on or off for a
 * model where it is optional (Kimi CLI's two steps); `/model ALIAS [--thinking|--no-thinking]`
 * switches at once. The running session switches in process and, as Kimi CLI's `/model` does, the
 * choice is saved as the config's `default_model` / `default_thinking`.
 */
export const modelCommand: TuiCommand = {
  name: 'model',
  description: 'switch the model (a list to choose from; or /model ALIAS), saved as the default',
  async run(args, context) {
    const { session, style } = context;
    const parsed = parseModelArgs(args);
    if (parsed === null) return context.note(style.warn(sanitizeForTerminal(MODEL_USAGE)));
    let { alias, thinking } = parsed;
    if (alias === null) {
      const models = session.models();
      if (models.length === 0)
        return context.note(style.warn('The config defines no models ([models.ALIAS] tables).'));
      const current = models.findIndex((m) => m.current);
      const chosen = await context.pick(
        new ChoicePicker(
          trustedLiteral('Switch to which model? (* is the one in use; the choice is saved as the default)'),
          models.map((m) => modelItem(m, session.thinking)),
          style,
          Math.max(0, current),
          'switches',
        ),
      );
      if (chosen === null) return;
      const choice = models.find((m) => m.alias === chosen);
      if (!choice) return;
      alias = choice.alias;
      if (choice.thinking === 'optional') {
        const now = choice.current && session.thinking;
        const mark = (on: boolean) => (choice.current && now === on ? trustedLiteral(' (current)') : t``);
        const picked = await context.pick(
          new ChoicePicker(
            t`Thinking for ${sanitizeForTerminal(alias)}?`,
            [
              { value: 'off', label: t`off${mark(false)}` },
              { value: 'on', label: t`on${mark(true)}` },
            ],
            style,
            now ? 1 : 0,
            'chooses',
          ),
        );
        if (picked === null) return;
        thinking = picked === 'on';
      }
      if (choice.current && (choice.thinking !== 'optional' || thinking === session.thinking))
        return context.note(
          style.dim(
            t`Already using ${sanitizeForTerminal(alias)} with thinking ${session.thinking ? trustedLiteral('on') : trustedLiteral('off')}.`,
          ),
        );
    }
    await switchModel(context, alias, thinking);
  },
};

async function switchModel(context: TuiCommandContext, alias: string, thinking: boolean | undefined) {
  const { session, style } = context;
  try {
    const switched = await session.switchModel(alias, { thinking, saveAsDefault: true });
    context.refreshStatus();
    context.note(
      style.accent(sanitizeForTerminal(switchedText(switched.alias, switched.thinking, switched.notSaved))),
    );
  } catch (error) {
    const message = sanitizeForTerminal(error instanceof Error ? error.message : String(error));
    if (error instanceof ModelSwitchError && error.reason === 'unknown_alias')
      return context.note(style.warn(message));
    context.note(
      t`${style.error('Error:')} Cannot switch to ${sanitizeForTerminal(alias.slice(0, 60))}: ${message}`,
    );
  }
}
