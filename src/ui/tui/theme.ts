/** The TUI's two colour themes (Kimi CLI's `theme` config key: `dark`, the default, or `light`). */
export type TuiTheme = 'dark' | 'light';

export const TUI_THEMES: readonly TuiTheme[] = ['dark', 'light'];

export function isTuiTheme(value: unknown): value is TuiTheme {
  return value === 'dark' || value === 'light';
}

/** SGR foreground codes (without `\x1b[` and `m`) for each role of the TUI's text. */
export interface ThemePalette {
  readonly accent: string;
  readonly ok: string;
  readonly warn: string;
  readonly error: string;
  readonly border: string;
  readonly inlineCode: string;
  /** Colours of highlighted code that read badly on this background, swapped for others. */
  readonly codeSwaps: Readonly<Record<string, string>>;
}

/**
 * The dark theme uses the terminal's own 16 colours (they follow the user's terminal scheme). On a
 * light background yellow and cyan wash out and bright black is too faint, so the light theme takes
 * darker shades from the 256-colour table for those.
 */
const PALETTES: Readonly<Record<TuiTheme, ThemePalette>> = {
  dark: { accent: '36', ok: '32', warn: '33', error: '31', border: '90', inlineCode: '33', codeSwaps: {} },
  light: {
    accent: '38;5;25',
    ok: '38;5;28',
    warn: '38;5;130',
    error: '38;5;160',
    border: '38;5;245',
    inlineCode: '38;5;130',
    codeSwaps: { '33': '38;5;130', '36': '38;5;30', '32': '38;5;28', '90': '38;5;244' },
  },
};

export function themePalette(theme: TuiTheme): ThemePalette {
  return PALETTES[theme];
}
