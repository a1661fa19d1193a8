import { describe, expect, it } from 'vitest';
import { readWrapperOptions, type WrapperOption } from './wrapper-options.js';

/** The options read and where the command starts, for a wrapper's words written as text. */
function read(program: string, line: string): { options: string[]; command: string } {
  const args = line === '' ? [] : line.split(' ').map((value) => ({ value }));
  const options: string[] = [];
  const at = readWrapperOptions(program, args, 0, (option: WrapperOption) => {
    options.push(`${option.flag}=${option.value}`);
    return false;
  });
  return {
    options,
    command: args
      .slice(at)
      .map((word) => word.value)
      .join(' '),
  };
}

describe('readWrapperOptions reads options as getopt_long does', () => {
  it.each([
    // [program, words, options with values seen, the command after them]
    ['env', '-iC . rm -rf v', ['-C=.'], 'rm -rf v'],
    ['env', '-iu X rm -rf v', ['-u=X'], 'rm -rf v'],
    ['env', '-uX rm', ['-u=X'], 'rm'],
    ['env', '--spl=STRING', ['--split-string=STRING'], ''],
    ['env', '--chd . rm', ['--chdir=.'], 'rm'],
    ['env', '--unset=X -i rm', ['--unset=X'], 'rm'],
    ['env', '- rm', [], 'rm'],
    ['env', '-- rm -x', [], 'rm -x'],
    ['timeout', '-vk 1 5 rm', ['-k=1'], '5 rm'],
    ['timeout', '-vk1 5 rm', ['-k=1'], '5 rm'],
    ['timeout', '--kill=1 5 rm', ['--kill-after=1'], '5 rm'],
    ['xargs', '-rn 1 rm -rf', ['-n=1'], 'rm -rf'],
    ['xargs', '-r0n1 rm', ['-n=1'], 'rm'],
    ['flock', '-xw 1 /tmp/l rm', ['-w=1'], '/tmp/l rm'],
    ['strace', '-fqqo /dev/null rm', ['-o=/dev/null'], 'rm'],
    ['exec', '-la x rm', ['-a=x'], 'rm'],
    ['prlimit', '--nofile=1024 rm', [], 'rm'],
    ['prlimit', '-p 1 rm', ['-p=1'], 'rm'],
    ['nice', '-n 5 make', ['-n=5'], 'make'],
    ['nohup', '- rm', [], '- rm'],
  ] as const)('%s %s', (program, line, options, command) => {
    expect(read(program, line)).toEqual({ options, command });
  });

  it('stops where seen says the rest is read (env -S: its string is the command)', () => {
    const args = ['-iS', 'rm -rf v', 'more'].map((value) => ({ value }));
    const seen: WrapperOption[] = [];
    const at = readWrapperOptions('env', args, 0, (option) => seen.push(option) > 0);
    expect(seen).toEqual([{ flag: '-S', value: 'rm -rf v' }]);
    expect(at).toBe(args.length);
  });

  it('takes a word an expansion decides as the command, and a missing value as unknown', () => {
    expect(readWrapperOptions('env', [{ value: '-i' }, { value: null }], 0, () => false)).toBe(1);
    const seen: WrapperOption[] = [];
    readWrapperOptions('env', [{ value: '-u' }], 0, (option) => seen.push(option) < 0);
    expect(seen).toEqual([{ flag: '-u', value: null }]);
  });
});
