import type { ComponentChildren } from 'preact';
import { ActionStatus, type useAction } from './ui.js';

/**
 * A form that runs one write through a useAction: the page keeps its fields and what the write
 * does; the form's name (its heading), the submit button held off while the write runs, and the
 * live status region are the same on every screen.
 */
export function ActionForm({
  action,
  onSubmit,
  id,
  title,
  level = 2,
  submit,
  primary = true,
  disabled = false,
  status = true,
  after,
  children,
}: {
  action: ReturnType<typeof useAction>;
  /** Runs on submit (the browser's own submission is prevented): usually `action.run(…)`, or a confirmation that runs it. */
  onSubmit: () => unknown;
  /** The heading's id: the form is named by its heading. With no title the form has neither. */
  id?: string;
  title?: ComponentChildren;
  level?: 2 | 3;
  /** The submit button's text; none, no button (a form the user may only read). */
  submit?: string | undefined;
  primary?: boolean;
  /** Reasons besides a running write that the button is off (e.g. nothing chosen yet). */
  disabled?: boolean;
  /** false: the page shows the action's status itself, e.g. where row buttons share the action. */
  status?: boolean;
  /** What stands after the status inside the form (an answer shown once, a confirmation dialog). */
  after?: ComponentChildren;
  children: ComponentChildren;
}) {
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <form
      class="card-form"
      aria-labelledby={title === undefined ? undefined : id}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {title === undefined ? null : <Heading id={id}>{title}</Heading>}
      {children}
      {submit === undefined ? null : (
        <button type="submit" class={primary ? 'primary' : undefined} disabled={action.busy || disabled}>
          {submit}
        </button>
      )}
      {status ? <ActionStatus action={action} /> : null}
      {after}
    </form>
  );
}
