import type { Notification } from '../wire/events.js';

/** The user message that tells the model about a notification (Kimi CLI's `<notification>` shape). */
export function renderNotificationForLLM(event: Notification & { output_tail: string | null }): string {
  const lines = [
    `<notification id="${event.id}" category="${event.category}" type="${event.type}" source_kind="${event.source_kind}" source_id="${event.source_id}">`,
    `Title: ${event.title}`,
    `Severity: ${event.severity}`,
    event.body,
  ];
  if (event.category === 'task') {
    const outputPath = event.payload.output_path;
    lines.push('<task-notification>');
    if (typeof outputPath === 'string') lines.push(`Full output: ${outputPath}`);
    lines.push('Last lines of output:');
    lines.push(event.output_tail ? event.output_tail : '[no output]');
    lines.push('</task-notification>');
  }
  lines.push('</notification>');
  return lines.join('\n');
}
