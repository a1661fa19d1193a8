import { terminalText as t } from '../../../util/sanitize-terminal.js';
import { sanitizeForTerminal } from '../sanitize-for-terminal.js';
import { isTuiTheme, TUI_THEMES } from '../theme.js';
import type { TuiCommand } from './tui-command.js';

/** `/theme [dark|light]`: shows the theme, or switches to one, saves it in the config and redraws. */
export const themeCommand: TuiCommand = {
  name: 'theme',
  needsRestart: true,
  description: 'show or set the colour theme: /theme dark or /theme light (saved in the config)',
  async run(args, context) {
    const { style } = context;
    const wanted = args.trim().toLowerCase();
    if (!wanted) {
      const themes = TUI_THEMES.map((theme) => `/theme ${theme}`).join(' or ');
      context.note(sanitizeForTerminal(`theme: ${style.theme} (${themes})`));
      return;
    }
    if (!isTuiTheme(wanted)) {
      context.note(style.warn(t`Unknown theme ${sanitizeForTerminal(wanted)}: dark or light.`));
      return;
    }
    let saved = 'saved in the config';
    try {
      if (context.saveTheme) await context.saveTheme(wanted);
      else saved = 'for this run only (no config file to save it in)';
    } catch (error) {
      saved = `for this run only: ${sanitizeForTerminal(error instanceof Error ? error.message : String(error))}`;
    }
    context.restart({ session: context.session, theme: wanted, notice: `theme: ${wanted}, ${saved}` });
  },
};
