import type { WorkspaceTrustView } from '../../app/agent-session.js';
import { heldBackLines } from '../../util/held-back-lines.js';
import {
  sanitizeForTerminal as clean,
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
} from '../../util/sanitize-terminal.js';
import type { LineReader } from './line-reader.js';

/**
 * Asks whether to trust the work dir, once at start, when trusting it would change something (its
 * rules file has allow rules). `y` trusts it and remembers that (the trust record in the agent's
 * home), `s` trusts it for this session only, `n` keeps its configuration off and is remembered
 * too (not asked again; `/permissions trust` trusts it later). Only an explicit choice answers; an empty line asks again. End of input leaves it untrusted.
 * On piped input nothing is asked (the lines are a script's requests): a notice says what is off.
 */
export async function askWorkspaceTrust(
  trust: WorkspaceTrustView,
  reader: LineReader,
  write: (text: TerminalSafe) => void,
  isTerminal: boolean,
): Promise<void> {
  // Nothing held back: nothing to ask or say.
  if (trust.trusted || trust.enables.length === 0) return;
  const held = joinTerminalText(
    trust.enables.map((item) => clean(item)),
    t`; `,
  );
  if (!isTerminal) {
    // Piped input is a script's requests: its first line must not become an answer to this.
    write(
      t`The folder ${clean(trust.folder)} is not trusted, so its ${held} are not in force (--trust-workspace trusts it).\n`,
    );
    return;
  }
  if (!trust.worthAsking) {
    // The person said no before (the trust record): not asked again, only reminded.
    write(
      t`Workspace not trusted (you said no before): its allow rules are not in force; /permissions trust trusts it.\n`,
    );
    return;
  }
  write(
    joinTerminalText(
      [
        t`Do you trust the folder ${clean(trust.folder)}?`,
        // Every allow rule it would put in force, one a line (the terminal's scrollback holds all).
        t`Its own configuration is not in force until you do:`,
        ...heldBackLines(trust),
        t`A repository you did not write can use it to run commands without asking.`,
        t`  y trust it (remembered)   s trust it for this session only   n do not trust it (remembered)`,
        t``,
      ],
      t`\n`,
    ),
  );
  for (;;) {
    const answer = await reader.ask('trust? ');
    if (answer === null) return;
    const choice = answer.trim().toLowerCase();
    if (choice === 'y' || choice === 'yes' || choice === 's') {
      try {
        await trust.trust({ remember: choice !== 's', source: 'person' });
        write(
          choice === 's'
            ? t`Trusted for this session: the folder's rules are in force.\n`
            : t`Trusted: the folder's rules are in force.\n`,
        );
      } catch (error) {
        write(t`The trust could not be recorded: ${clean((error as Error).message)}\n`);
      }
      return;
    }
    if (choice === 'n' || choice === 'no') {
      try {
        await trust.decline();
        write(
          t`Not trusted: the folder's allow rules stay off (its deny and ask rules still hold). Not asked again here; /permissions trust trusts it.\n`,
        );
      } catch (error) {
        write(t`Not trusted; the answer could not be recorded: ${clean((error as Error).message)}\n`);
      }
      return;
    }
    write(t`  (type y, s or n and press Enter)\n`);
  }
}
