import { describe, expect, it } from 'vitest';
import { DenwaRenji } from '../../soul/dmail.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';

async function setup(checkpoints: number) {
  const denwaRenji = new DenwaRenji();
  denwaRenji.setCheckpointCount(checkpoints);
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
  await toolset.loadTools(['kimi-ts/tools/dmail/send-dmail:SendDMail'], { denwaRenji }, { baseDir: '/' });
  const send = async (args: unknown) => (await dispatchAll(toolset, [toolCall('d', 'SendDMail', args)]))[0]!;
  return { denwaRenji, toolset, send };
}

const brief = (value: { display: { type: string; text?: unknown }[] }) =>
  value.display.find((block) => block.type === 'brief')?.text;

describe('SendDMail', () => {
  it('queues the D-Mail with the soul and answers with the not-delivered note', async () => {
    const { denwaRenji, send } = await setup(3);
    const result = await send({ message: 'Skip the cache idea, it cannot work.', checkpoint_id: 2 });
    expect(result.return_value.is_error).toBe(false);
    expect(result.return_value.message).toMatch(/D-Mail was NOT delivered/);
    expect(brief(result.return_value)).toBe('El Psy Kongroo');
    expect(denwaRenji.take()).toEqual({ message: 'Skip the cache idea, it cannot work.', checkpointId: 2 });
  });

  it('refuses a second D-Mail while one is pending and a checkpoint that does not exist', async () => {
    const { denwaRenji, send } = await setup(2);
    expect((await send({ message: 'first', checkpoint_id: 0 })).return_value.is_error).toBe(false);
    const second = await send({ message: 'second', checkpoint_id: 1 });
    expect(second.return_value).toMatchObject({ is_error: true });
    expect(second.return_value.message).toMatch(/^Failed to send D-Mail: Only one D-Mail/);
    expect(brief(second.return_value)).toBe('Failed to send D-Mail');
    expect(denwaRenji.take()?.message).toBe('first');

    const beyond = await send({ message: 'too far', checkpoint_id: 2 });
    expect(beyond.return_value.message).toMatch(/^Failed to send D-Mail: There is no checkpoint with id 2/);
    expect(denwaRenji.hasPending).toBe(false);
  });

  it('validates the checkpoint id and says in its description that files are not reverted', async () => {
    const { toolset, send } = await setup(5);
    for (const checkpoint_id of [-1, 1.5, '1']) {
      expect(toolErrorKind((await send({ message: 'm', checkpoint_id })).return_value)).toBe('validate');
    }
    expect(toolset.find('SendDMail')?.description).toMatch(/Files on disk are NOT reverted/);
    expect(toolset.find('SendDMail')?.description).toContain('/rewind');
  });
});
