/** The tool results of a `--print --output-format stream-json` run, as JSON text, in order. */
export function toolResults(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { role: string; content: unknown })
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.stringify(message.content));
}
