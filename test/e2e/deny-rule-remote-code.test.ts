import { describe, expect, it } from 'vitest';
import { formsThatDeleted as deletedBy } from '../support/deny-rule-forms.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes4): commands that programs for copies and connections run here — git's
 * GIT_SSH_COMMAND (set before the command, through env, or exported for the next one), scp's and
 * sftp's `-o ProxyCommand`, sftp's `-D` server — must not get past a `Shell(rm -rf*)` deny rule in
 * print mode with --yolo. No connection is made: each runs its command before it would connect.
 * (rsync, docker compose and kubectl are not on this machine: their forms are the policy table's,
 * session-policy-shell-remote-code.test.ts.)
 */

const cli = useScriptedCli();

describe('a deny rule for rm -rf holds against commands a copy or a connection runs', () => {
  // These got through before (the attack first): each form ran rm -rf past the rule.
  it('GIT_SSH_COMMAND (before the command, through env, exported), scp/sftp -o ProxyCommand, sftp -D', async () => {
    const forms = [
      "GIT_SSH_COMMAND='rm -rf VICTIM' git ls-remote ssh://h/x",
      "env GIT_SSH_COMMAND='rm -rf VICTIM' git ls-remote ssh://h/x",
      "export GIT_SSH_COMMAND='rm -rf VICTIM'; git ls-remote ssh://h/x",
      // git adds the host after the line: `rm -rf VICTIM git-upload-pack '/x'`.
      "GIT_SSH_COMMAND='rm -rf' git ls-remote ssh://VICTIM/x",
      "scp -F /dev/null -o ProxyCommand='rm -rf VICTIM' -o BatchMode=yes /etc/hostname h:b",
      "sftp -F /dev/null -o ProxyCommand='rm -rf VICTIM' -o BatchMode=yes h",
      "sftp -D 'rm -rf VICTIM'",
    ];
    expect(await deletedBy(cli, forms)).toEqual([]);
  });
});
