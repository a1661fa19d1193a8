import { describe, expect, it } from 'vitest';
import { trustedLiteral } from '../../util/sanitize-terminal.js';
import { NoteView } from './note-view.js';
import { SafeContainer } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { tuiStyle } from './tui-style.js';

/** Text from elsewhere (a model, a tool, a file), typed as such. */
const fromModel: string = 'evil \x1b]52;c;ZXZpbA==\x07';

describe('terminal safety is a type in the TUI', () => {
  it('takes sanitised text and literals of our own, and refuses a plain string at compile time', () => {
    const style = tuiStyle(true);
    const container = new SafeContainer();
    // Checked by the compiler (npm run typecheck), never run: each line is an error it must report.
    const refusedAtCompileTime = () => {
      // @ts-expect-error a string that skipped the sanitiser does not reach a note
      new NoteView(fromModel);
      // @ts-expect-error nor a style
      style.dim(fromModel);
      // @ts-expect-error nor a template built from it
      new NoteView(`${style.dim('said:')} ${fromModel}`);
      // @ts-expect-error a component whose lines are plain strings is not a safe part
      container.addChild({ render: () => [fromModel], invalidate: () => {} });
    };
    expect(refusedAtCompileTime).toBeTypeOf('function');
    container.addChild(new NoteView(style.dim(sanitizeForTerminal(fromModel))));
    container.addChild(new NoteView(style.warn('our own words')));
    container.addChild(new NoteView(trustedLiteral('more of our own')));
    const screen = container.render(80).join('\n');
    expect(screen).toContain('evil ␛]52;c;ZXZpbA==␇');
    expect(screen).not.toContain('\x1b]');
    expect(screen).not.toContain('\x07');
  });
});
