import { toolFactory } from '../../toolset/loading/dependencies.js';

/**
 * Sends a D-Mail to the model's past self (reference §1.14). The soul acts on it after the step: the
 * context goes back to the checkpoint and the message is handed over there, so a successful call never
 * returns to the model. Reading this tool's result therefore means the D-Mail did not go out.
 */
export const SendDMail = toolFactory(['denwaRenji'], async ({ denwaRenji }, kit) =>
  kit.defineTool({
    name: 'SendDMail',
    description: await kit.loadToolDescription(new URL('./send-dmail.md', import.meta.url)),
    params: kit.z.object({
      message: kit.z.string().describe('What your past self should know.'),
      checkpoint_id: kit.z
        .number()
        .int()
        .min(0)
        .describe('The checkpoint to send the message back to (the N of a `CHECKPOINT N` marker).'),
    }),
    effect: 'read-only',
    call: ({ message, checkpoint_id }) => {
      const refusal = denwaRenji.send({ message, checkpointId: checkpoint_id });
      if (refusal !== null)
        return kit.toolError(`Failed to send D-Mail: ${refusal}`, 'Failed to send D-Mail');
      return kit.toolOk(
        '',
        'If you can read this, the D-Mail was NOT delivered, possibly because another tool call in this step was rejected.',
        'El Psy Kongroo',
      );
    },
  }),
);
