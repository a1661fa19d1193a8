/** The Agent tool's output after a foreground run (reference §1.11 lists these lines). */
export function foregroundOutput(fields: {
  agentId: string;
  resumed: boolean;
  requestedType: string | null;
  actualType: string;
  report: string;
}): string {
  const lines = [`agent_id: ${fields.agentId}`, `resumed: ${fields.resumed}`];
  if (fields.requestedType !== null) lines.push(`requested_subagent_type: ${fields.requestedType}`);
  lines.push(
    `actual_subagent_type: ${fields.actualType}`,
    'status: completed',
    '',
    '[summary]',
    fields.report,
  );
  return lines.join('\n');
}

/** The Agent tool's output when a background run was started. */
export function backgroundStartedOutput(fields: {
  taskId: string;
  status: string;
  description: string;
  agentId: string;
  actualType: string;
}): string {
  return [
    `task_id: ${fields.taskId}`,
    'kind: agent',
    `status: ${fields.status}`,
    `description: ${fields.description}`,
    `agent_id: ${fields.agentId}`,
    `actual_subagent_type: ${fields.actualType}`,
    'automatic_notification: true',
    'next_step: Go on with other work; a notification arrives in your context when the task ends.',
    'next_step: To look at it earlier, call TaskOutput with this task_id (block=true waits for the end).',
    `resume_hint: Use Agent(resume="${fields.agentId}", prompt="...") to give this subagent a follow-up task once it has finished.`,
  ].join('\n');
}
