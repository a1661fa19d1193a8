import { useRef } from 'preact/hooks';
import { heldBackLines } from '../../../util/held-back-lines.js';
import { revealInvisibleOneLine } from '../../../util/reveal-invisible.js';
import type { PendingTrust } from './conversation-state.js';
import { useArmedPanel } from './use-armed-panel.js';

/**
 * Whether to trust the session's folder, asked once after connecting when its own configuration (its
 * rules file's allow rules) is held back: trust it and remember, trust it for this session, or not
 * (remembered too: the folder is not asked about again; `/permissions trust` trusts it later).
 * As with approvals, clicks in the first moments after it appeared answer nothing, and the focus
 * starts on "Do not trust", so a key typed ahead can only keep the folder untrusted.
 */
export function TrustPanel({
  trust,
  onAnswer,
}: {
  trust: PendingTrust;
  onAnswer: (trusted: boolean, remember: boolean) => void;
}) {
  const { request } = trust;
  const panel = useRef<HTMLElement>(null);
  const armed = useArmedPanel(panel, request.id, 'button.trust-no');
  const disabled = trust.rpcId === null;
  // Before it is armed a click answers nothing (it was aimed at what was there before).
  const answer = (trusted: boolean, remember: boolean) => {
    if (armed) onAnswer(trusted, remember);
  };
  return (
    <section
      ref={panel}
      class="panel approval trust"
      role="dialog"
      aria-modal="false"
      aria-labelledby={`trust-${request.id}`}
      data-armed={armed ? 'true' : 'false'}
    >
      <h3 id={`trust-${request.id}`}>Trust the folder {revealInvisibleOneLine(request.folder)}?</h3>
      {/* Every allow rule it would put in force, one a line, revealed (the description scrolls). */}
      <p class="description">
        {[
          'Until you do, its own configuration is not in force:',
          ...heldBackLines({
            enables: request.enables,
            allowRules: request.allow_rules ?? [],
          }),
          'A repository you did not write can use it to run commands without asking.',
        ].join('\n')}
      </p>
      <div class="choices">
        <button type="button" disabled={disabled} onClick={() => answer(true, true)}>
          Trust this folder
        </button>
        <button type="button" disabled={disabled} onClick={() => answer(true, false)}>
          For this session only
        </button>
        <button type="button" class="trust-no" disabled={disabled} onClick={() => answer(false, true)}>
          Do not trust
        </button>
      </div>
    </section>
  );
}
