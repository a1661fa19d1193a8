import { describe, expect, it } from 'vitest';
import { acpAskingAgent } from './acp-asking-agent.js';
import { displayContent, toolTitle } from './session-updates.js';

// Issue #24 over ACP: what the editor's dialog shows is what the person approves, so the text it
// gets is the revealed text every other front end shows.

const RLO = '\u202e';

describe('what an ACP editor is shown', () => {
  it('a command with a bidi override or blank-line padding, revealed', () => {
    const [bidi] = displayContent([{ type: 'shell', language: 'bash', command: `echo ok #${RLO} ;id` }]);
    expect(bidi).toEqual({ type: 'content', content: { type: 'text', text: '$ echo ok #⟨U+202E⟩ ;id' } });
    const [padded] = displayContent([
      { type: 'shell', language: 'bash', command: `echo ok${'\n'.repeat(300)}touch pwned` },
    ]);
    expect(padded).toEqual({
      type: 'content',
      content: { type: 'text', text: '$ echo ok\n⟨299 blank lines⟩\ntouch pwned' },
    });
  });

  it('a diff with every line revealed and kept, so its line numbers stay the file’s', () => {
    const newText = `#!/bin/sh\n# check ${RLO}\u2066\n\n\n\nrm -rf ~ \u2069\n`;
    const [diff] = displayContent([
      { type: 'diff', path: `/w/che${RLO}ck.sh`, old_text: 'x\u200b\u200b', new_text: newText },
    ]);
    expect(diff).toEqual({
      type: 'diff',
      path: '/w/che⟨U+202E⟩ck.sh',
      oldText: 'x⟨U+200B ×2⟩',
      newText: '#!/bin/sh\n# check ⟨U+202E⟩⟨U+2066⟩\n\n\n\nrm -rf ~ ⟨U+2069⟩\n',
    });
  });

  it('the permission dialog’s title and a tool call’s title, revealed', () => {
    expect(acpAskingAgent({}, `Run command echo ok${'\n'.repeat(5)}rm${RLO}`).title).toBe(
      'Run command echo ok\n⟨4 blank lines⟩\nrm⟨U+202E⟩',
    );
    const asked = acpAskingAgent({ agent_id: 'a1', source_description: `fix${RLO}` }, 'Edit file');
    expect(asked.title).not.toContain(RLO);
    expect(toolTitle('Shell', JSON.stringify({ command: `ls ${RLO}x` }), '/w')).toBe('Shell: ls ⟨U+202E⟩x');
  });
});
