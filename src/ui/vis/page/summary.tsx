import type { VisModel } from '../model/vis-model.js';

/** The session's title and its totals. */
export function Summary({ model }: { model: VisModel }) {
  const s = model.summary;
  const facts: [string, string][] = [
    ['turns', String(s.turns)],
    ['steps', String(s.steps)],
    ['tool calls', String(s.toolCalls)],
    ['retries', String(s.retries)],
    ['compactions', String(s.compactions)],
    ['D-Mails', String(s.dmails)],
    ['approvals', String(s.approvals)],
    ['subagents', String(s.subagents)],
    ['tokens in / cached / out', `${s.tokens.input} / ${s.tokens.cached} / ${s.tokens.output}`],
  ];
  return (
    <section class="summary">
      <h2>{model.title}</h2>
      <p class="meta">
        {model.sessionId} · {new Date(model.start * 1000).toLocaleString()} · {model.eventCount} events
        {model.running ? ' · still running (or ended without TurnEnd)' : ''}
        {model.tornTail ? ' · last line cut short' : ''}
        {Object.keys(model.unknownTypes).length > 0
          ? ` · unknown events: ${Object.entries(model.unknownTypes)
              .map(([type, n]) => `${type}×${n}`)
              .join(', ')}`
          : ''}
      </p>
      <dl>
        {facts.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
