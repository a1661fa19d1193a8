import { describe, expect, it } from 'vitest';
import { buildProgram, needsSubcommands, SUBCOMMAND_NAMES } from './program.js';

describe('the program', () => {
  it('names its subcommands in SUBCOMMAND_NAMES, the list a mistyped one is found by', () => {
    expect(buildProgram().commands.map((command) => command.name())).toEqual([...SUBCOMMAND_NAMES]);
  });

  it('is the main command alone when the line names no subcommand', () => {
    const program = buildProgram({ subcommands: false });
    expect(program.commands).toEqual([]);
    // The main command's flags are all there.
    expect(program.options.map((option) => option.long)).toEqual(
      buildProgram().options.map((option) => option.long),
    );
  });

  it.each([
    [['--print', '-p', 'hi'], false],
    [['fix the bug'], false],
    [['-w', '/tmp', '--yolo', 'sesions'], false],
    [['sessions'], true],
    [['--config-file', 'c.toml', 'plugin', 'list'], true],
    [['fleet', 'status', '--queue', 'redis://x'], true],
    [['--yolo', '--help'], true],
    [['-h'], true],
    [['help'], true],
    // A prompt that is a subcommand's name: built, and dispatched as before.
    [['-p', 'info'], true],
  ])('needsSubcommands(%j) is %s', (args, needed) => {
    expect(needsSubcommands(args)).toBe(needed);
  });

  it('parses a print run the same without the subcommands', () => {
    const args = ['--work-dir', '/tmp', '--yolo', '--print', '-p', 'hi', 'and', 'more'];
    const parse = (subcommands: boolean) => {
      const program = buildProgram({ subcommands }).exitOverride();
      const parsed = program.parseOptions(args);
      return { operands: parsed.operands, unknown: parsed.unknown, options: program.opts() };
    };
    expect(parse(false)).toEqual(parse(true));
  });
});
