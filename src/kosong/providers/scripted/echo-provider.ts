import { ChatProviderError } from '../../errors.js';
import { extractText, type ThinkingEffort } from '../../message.js';
import type { ChatProvider, GenerateRequest, StreamedMessage } from '../../provider.js';
import { parseScript } from './dsl.js';
import { openTurnStream } from './turn-stream.js';

/**
 * A chat provider that answers with whatever the user wrote: the last message of the history must
 * be a user message, and its text is read as a script. Lets a person (or an end-to-end test typing
 * into the CLI) drive the agent loop by hand.
 */
export class EchoProvider implements ChatProvider {
  readonly name = 'echo';
  readonly modelName = 'echo';

  constructor(readonly thinkingEffort: ThinkingEffort | null = null) {}

  async generate(request: GenerateRequest): Promise<StreamedMessage> {
    request.signal?.throwIfAborted();
    const last = request.history[request.history.length - 1];
    if (last === undefined)
      throw new ChatProviderError(
        'Echo provider needs a history that ends with a user message; the history is empty.',
      );
    if (last.role !== 'user') {
      throw new ChatProviderError(
        `Echo provider needs the last history message to be from the user, not the ${last.role}.`,
      );
    }
    // Text parts are separate blocks of the message; a newline keeps their directives on separate lines.
    return openTurnStream(parseScript(extractText(last, '\n')), request.signal);
  }

  withThinking(effort: ThinkingEffort): EchoProvider {
    return new EchoProvider(effort);
  }
}
