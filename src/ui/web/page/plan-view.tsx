import { MarkdownView } from './markdown-view.js';
import type { PlanDisplay } from './wire-types.js';

/** The plan of plan mode, as the agent last showed it, and the switch for plan mode. */
export function PlanView({
  plan,
  planMode,
  onToggle,
}: {
  plan: PlanDisplay | null;
  planMode: boolean;
  onToggle: (enabled: boolean) => void;
}) {
  return (
    <section class="plan" aria-label="plan">
      <label class="toggle">
        <input
          type="checkbox"
          checked={planMode}
          onChange={(e) => onToggle((e.target as HTMLInputElement).checked)}
        />{' '}
        Plan mode
      </label>
      {plan ? (
        <details open>
          <summary>Plan · {plan.file_path}</summary>
          <MarkdownView text={plan.content} />
        </details>
      ) : null}
    </section>
  );
}
