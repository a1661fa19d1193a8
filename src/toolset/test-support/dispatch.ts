import type { ToolCall, ToolDispatch, ToolResult, Toolset } from '../../kosong/index.js';

export function toolCall(id: string, name: string, args: unknown): ToolCall {
  return {
    type: 'function',
    id,
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  };
}

/** A dispatch whose model stream already ended cleanly. */
export function cleanDispatch(signal: AbortSignal = new AbortController().signal): ToolDispatch {
  return { signal, streamOutcome: Promise.resolve(true) };
}

/** A dispatch whose stream is still open: the test ends it (cleanly or not) or aborts the step. */
export function openDispatch(): {
  dispatch: ToolDispatch;
  endStream: (clean: boolean) => void;
  abort: (reason?: unknown) => void;
} {
  const controller = new AbortController();
  let endStream!: (clean: boolean) => void;
  const streamOutcome = new Promise<boolean>((resolve) => {
    endStream = resolve;
  });
  return {
    dispatch: { signal: controller.signal, streamOutcome },
    endStream,
    abort: (reason) => controller.abort(reason),
  };
}

/** Dispatches the calls like `step` does (all at once, in order) and awaits the results in call order. */
export async function dispatchAll(
  toolset: Toolset,
  calls: ToolCall[],
  dispatch = cleanDispatch(),
): Promise<ToolResult[]> {
  const futures = calls.map((call) => Promise.resolve(toolset.handle(call, dispatch)));
  return Promise.all(futures);
}

export function resultText(result: ToolResult): string {
  const { output, message } = result.return_value;
  const text =
    typeof output === 'string'
      ? output
      : output.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return `${message}\n${text}`;
}
