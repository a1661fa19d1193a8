import { describe, expect, it } from 'vitest';
import { rsyncWords, sshArgvWords, wordsAsLine } from './program-word-splits.js';

describe('rsyncWords: the words rsync makes of its remote shell (-e, RSYNC_RSH)', () => {
  it.each([
    ['ssh -p 2222', ['ssh', '-p', '2222']],
    ['  ssh   -p 2 ', ['ssh', '-p', '2']],
    ["ssh -i 'my key'", ['ssh', '-i', 'my key']],
    ['rm "-rf" v', ['rm', '-rf', 'v']],
    ["a'b c'd", ['ab cd']],
    ["'it''s'", ["it's"]],
    [`"say 'hi'"`, ["say 'hi'"]],
    ['a\\ b', ['a\\', 'b']],
    ['a\tb', ['a\tb']],
    ['', []],
  ])('%j', (text, words) => {
    expect(rsyncWords(text)).toEqual(words);
  });

  it('refuses a quote left open, as rsync does', () => {
    expect(rsyncWords("ssh 'x")).toBeNull();
  });
});

describe("sshArgvWords: the words sftp's -D server is split into (OpenSSH argv_split)", () => {
  it.each([
    ['rm -rf v', ['rm', '-rf', 'v']],
    ['a\tb', ['a', 'b']],
    ['rm \'-rf\' "v w"', ['rm', '-rf', 'v w']],
    ['a\\ b', ['a b']],
    ['a\\"b', ['a"b']],
    ['r\\m', ['r\\m']],
    ['rm -rf v # x', ['rm', '-rf', 'v']],
    ['rm a#b', ['rm', 'a#b']],
    ['# all', []],
  ])('%j', (text, words) => {
    expect(sshArgvWords(text)).toEqual(words);
  });

  it('refuses a quote left open', () => {
    expect(sshArgvWords('rm "v')).toBeNull();
  });
});

describe('wordsAsLine', () => {
  it('quotes each word, and stands "$@" for the arguments the program adds', () => {
    expect(wordsAsLine(['rm', '-rf', 'my dir'], true)).toBe(`rm -rf 'my dir' "$@"`);
    expect(wordsAsLine(['a;b'], false)).toBe(`'a;b'`);
    expect(wordsAsLine([], true)).toBe('');
  });
});
