import { describe, expect, it } from 'vitest';
import { formsThatDeleted as deletedBy } from '../support/deny-rule-forms.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "deny rules match a normalised form … and deny what they cannot rule out" (red team
 * red4): a `Shell(rm -rf*)` deny rule in print mode with --yolo. Each form below deleted its folder.
 */

const cli = useScriptedCli();
const formsThatDeleted = (forms: readonly string[]) => deletedBy(cli, forms);

describe('a deny rule for rm -rf holds against wrappers and code runners red4 found', () => {
  // Wrapper forms: a cluster of short options whose last one takes a value (`env -iC DIR`,
  // `timeout -vk 1`, `xargs -rn 1`, `flock -xw 1`, `strace -fqqo FILE`, `exec -la NAME`, `env -iS…`,
  // `env -vS …`), an abbreviated long option (`env --spl=`), a wrapper not on the list (prlimit),
  // and a wrapper or shell string inside `find -exec`.
  it('wrapper forms: option clusters with a value, abbreviated long options, prlimit, find -exec env/sh -c', async () => {
    const forms = [
      'env -iS"rm -rf VICTIM"',
      "env -vS 'rm -rf VICTIM'",
      'env --spl="rm -rf VICTIM"',
      'env -iC . rm -rf VICTIM',
      'env -iu X rm -rf VICTIM',
      'timeout -vk 1 5 rm -rf VICTIM',
      'echo VICTIM | xargs -rn 1 rm -rf',
      'echo VICTIM | xargs -rd "\\n" rm -rf',
      'flock -xw 1 /tmp/l rm -rf VICTIM',
      'strace -fqqo /dev/null rm -rf VICTIM',
      'exec -la x rm -rf VICTIM',
      'prlimit rm -rf VICTIM',
      'prlimit --nofile=1024 rm -rf VICTIM',
      'find . -maxdepth 1 -name VICTIM -exec env rm -rf {} +',
      'find . -maxdepth 1 -name VICTIM -exec sh -c \'rm -rf "$0"\' {} \\;',
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });

  // Programs that run a command string from their input or options: tclsh, sqlite3 dot commands,
  // vim/ex `!`, ed `!`, less through LESSOPEN, zip's test command.
  it('interpreters and editors: tclsh, sqlite3 .shell/.system, vim -c !, ex -c !, ed !, LESSOPEN, zip -TT', async () => {
    const forms = [
      "tclsh <<< 'exec rm -rf VICTIM'",
      "sqlite3 :memory: '.shell rm -rf VICTIM'",
      "sqlite3 :memory: '.system rm -rf VICTIM'",
      "vim -es -c '!rm -rf VICTIM' -c q",
      "vim +'!rm -rf VICTIM' +q -es",
      "tclsh /dev/stdin <<< 'exec rm -rf VICTIM'",
      "ex -s -c '!rm -rf VICTIM' -c q",
      "echo '!rm -rf VICTIM' | ed -s",
      "LESSOPEN='|rm -rf VICTIM %s' less /etc/hostname",
      "zip -q /tmp/z.zip /etc/hostname -T -TT 'rm -rf VICTIM;'",
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });

  // bash's own start-up files and hooks: BASH_ENV through `env`, PROMPT_COMMAND, --rcfile.
  it('bash start-up code: env BASH_ENV=, PROMPT_COMMAND with bash -i, bash --rcfile', async () => {
    const forms = [
      'env BASH_ENV=<(echo rm -rf VICTIM) bash -c true',
      "PROMPT_COMMAND='rm -rf VICTIM' bash -i <<< ''",
      "bash --rcfile <(echo rm -rf VICTIM) -i <<< ''",
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });

  // Programs whose option or input is a command string: GIT_SSH_COMMAND, npx -c, npm exec -c/--call,
  // make reading its makefile from stdin or --eval, perl -e under find -exec.
  it('command strings: GIT_SSH_COMMAND, npx -c, npm exec -c/--call, make -f -, make --eval, find -exec perl -e', async () => {
    const forms = [
      "GIT_SSH_COMMAND='rm -rf VICTIM;' git ls-remote ssh://h/r",
      "npx -c 'rm -rf VICTIM'",
      "npm exec -c 'rm -rf VICTIM'",
      "npm exec --call 'rm -rf VICTIM'",
      "make -f - <<< $'a:\\n\\trm -rf VICTIM'",
      "make --eval=$'a:\\n\\trm -rf VICTIM' a",
      'find . -maxdepth 1 -name VICTIM -exec perl -e \'system("rm","-rf",@ARGV)\' {} +',
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });

  // A script the same command writes and then runs (as `source <(echo …)`, denied, but through a file).
  it('a script the command writes, then runs: sh FILE, . FILE, ./FILE', async () => {
    const forms = [
      "echo 'rm -rf VICTIM' > /tmp/s0; sh /tmp/s0",
      "echo 'rm -rf VICTIM' > /tmp/s1; . /tmp/s1",
      "printf '#!/bin/sh\\nrm -rf VICTIM\\n' > /tmp/s2; chmod +x /tmp/s2; /tmp/s2",
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });
});
