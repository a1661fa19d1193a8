import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern.js';

describe('compileGlob for paths (picomatch)', () => {
  it.each([
    ['/w/*.ts', '/w/a.ts', true],
    ['/w/*.ts', '/w/sub/a.ts', false],
    ['/w/**', '/w/a/b/c', true],
    ['/w/**/x', '/w/x', true],
    ['/w/**/x', '/w/a/b/x', true],
    ['/w/a?c', '/w/abc', true],
    ['/w/a?c', '/w/a/c', false],
    ['/w/*', '/w/.env', true],
    ['/w/secret*', '/w/secret\nname', true],
    // Everything but `*`, `?` and `/` is literal, as before picomatch.
    ['/w/file(1).txt', '/w/file(1).txt', true],
    ['/w/[ab].txt', '/w/[ab].txt', true],
    ['/w/[ab].txt', '/w/a.txt', false],
    ['/w/*.{ts,js}', '/w/a.ts', false],
    ['/w/*.{ts,js}', '/w/a.{ts,js}', true],
    ['!/w/x', '!/w/x', true],
    ['/w/+(a|b)', '/w/a', false],
    // Where picomatch and the old compiler disagreed: picomatch's `/w/**` also names the folder
    // itself (kept: a deny rule on a tree also covers the folder); the old one did not.
    ['/w/**', '/w', true],
    // picomatch reads a `**` inside a name as `*`; the old compiler let it cross folders, which
    // the README promises and which a deny rule relies on: kept.
    ['/w/src/**.ts', '/w/src/a.ts', true],
    ['/w/src/**.ts', '/w/src/a/b.ts', true],
    ['/w/a**b', '/w/axb', true],
    ['/w/a**b', '/w/ax/yb', true],
    ['/w/a**b', '/w/ax/yc', false],
  ])('%s vs %j → %s', (glob, path, expected) => {
    expect(compileGlob(glob, true)(path)).toBe(expected);
  });
});

describe('compileGlob for commands and URLs (a wildcard over the whole text)', () => {
  it.each([
    ['rm -rf*', 'rm -rf /', true],
    ['rm -rf*', 'rm -rf /tmp\necho done', true],
    ['git ?og', 'git log', true],
    ['a?c', 'a/c', true],
    ['git log', 'git  log', false],
    ['curl https://*.example.com/*', 'curl https://api.example.com/v1/x', true],
    ['echo [x]', 'echo [x]', true],
    ['echo [x]', 'echo x', false],
    // A literal text, or one then stars, is compared as a string; the others after their literal start.
    ['git status', 'git status', true],
    ['git status', 'git status ', false],
    ['git status*', 'git status', true],
    ['git status**', 'git status --short\nrm -rf /', true],
    ['git status*', 'git statu', false],
    ['git status*', ' git status', false],
    ['*', '', true],
    ['**', 'x\ny', true],
    ['?', '', false],
    ['npm *build', 'npm run build', true],
    ['npm *build', 'npx run build', false],
    ['npm *build', 'npm run build\n', false],
  ])('%s vs %j → %s', (glob, text, expected) => {
    expect(compileGlob(glob, false)(text)).toBe(expected);
  });
});
